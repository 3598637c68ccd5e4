/**
 * Makes the running effect (or derived) depend on `values`: Svelte tracks the state read while the arguments are
 * evaluated. For an effect that must run again when, say, the active profile's generation or a retry counter
 * changes although its body does not otherwise read them.
 */
export function dependOn(..._values: unknown[]): void {
  // Nothing to do: the reads happened when the arguments were evaluated.
}
