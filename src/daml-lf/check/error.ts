/** Type errors of the Daml-LF type checker, named after the spec rule that failed. */
export class LfTypeError extends Error {
  override readonly name = 'LfTypeError';
  constructor(
    /** The spec rule that failed (e.g. `ExpApp`). */
    readonly rule: string,
    message: string,
  ) {
    super(`${rule}: ${message}`);
  }
}

export const fail = (rule: string, message: string): never => {
  throw new LfTypeError(rule, message);
};
