/**
 * Interpretation errors of the engine (the spec's `Err (Fatal …)` results and the engine's interpretation errors).
 * A Daml exception that nobody catches becomes `UnhandledException`. The simulator maps `kind` to Canton's error codes
 * (see ../lf-errors.ts).
 */
import type { V } from './value.js';

export type EngineErrorKind =
  /** ERROR builtin. */
  | 'UserError'
  /** FAIL_WITH_STATUS, and unhandled exceptions as Canton 3 reports them (errorId `UNHANDLED_EXCEPTION/Module:Name`). */
  | 'FailureStatus'
  | 'UnhandledException'
  | 'TemplatePreconditionViolated'
  | 'FailedAuthorization'
  | 'ContractNotFound'
  | 'ContractNotActive'
  | 'ContractKeyNotFound'
  | 'DuplicateContractKey'
  | 'WronglyTypedContract'
  | 'ContractDoesNotImplementInterface'
  | 'ContractDoesNotImplementRequiringInterface'
  | 'NonComparableValues'
  | 'ContractIdComparability'
  | 'ContractIdInContractKey'
  | 'ValueNesting'
  | 'CreateEmptyContractKeyMaintainers'
  | 'FetchEmptyContractKeyMaintainers'
  | 'ChoiceGuardFailed'
  | 'MatchError'
  | 'Crypto'
  | 'UpgradeTranslationFailed'
  | 'UpgradeValidationFailed'
  | 'UnknownDefinition'
  | 'PartyNotKnown'
  | 'LimitExceeded'
  | 'Internal';

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The payload of `FailureStatus`. */
export interface FailureStatus {
  errorId: string;
  /** Canton error category id (8 = InvalidIndependentOfSystemState, 9 = InvalidGivenCurrentSystemStateOther). */
  category: number;
  message: string;
  metadata: Record<string, string>;
}

export class FailureStatusError extends EngineError {
  constructor(readonly status: FailureStatus) {
    super('FailureStatus', `${status.errorId} (error category ${status.category}): ${status.message}`, {
      error_id: status.errorId,
      ...status.metadata,
    });
  }
}

/** A Daml exception (`AnyException` payload) that no try-catch handled. */
export class DamlThrow extends Error {
  override readonly name = 'DamlThrow';
  constructor(readonly exception: V) {
    super('unhandled Daml exception');
  }
}
