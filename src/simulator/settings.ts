/** Tunable simulator settings (mirrors the relevant Canton JSON API / participant settings). */
export interface SimulatorSettings {
  /** `http-list-max-elements-limit`: max elements in a non-streaming list answer (413 above). */
  httpListMaxElementsLimit: number;
  /** Max deduplication duration (participant `max-deduplication-duration`), micros. */
  maxDeduplicationMicros: bigint;
  /** Idle timeout for blocking list endpoints that follow the ledger end (ms). */
  streamIdleTimeoutMs: number;
  maxUsersPageSize: number;
  maxPartiesPageSize: number;
  /** Participant `max-identity-provider-configs`: creating one more fails with TOO_MANY_IDENTITY_PROVIDER_CONFIGS. */
  maxIdentityProviderConfigs: number;
  /**
   * Commands that arrive together share one durable transaction and one fsync (group-commit.ts); off: one
   * transaction per command (the benchmark's same-run baseline).
   */
  groupCommit: boolean;
}

export const defaultSettings = (): SimulatorSettings => ({
  httpListMaxElementsLimit: 200,
  maxDeduplicationMicros: 7n * 24n * 3600n * 1_000_000n,
  streamIdleTimeoutMs: 300,
  maxUsersPageSize: 1000,
  maxPartiesPageSize: 10000,
  maxIdentityProviderConfigs: 10,
  groupCommit: true,
});
