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
  /** Largest DAR body accepted. */
  maxDarBytes: number;
  /** Ceilings on a DAR's uncompressed content (one entry, all entries): what a zip bomb can make the reader allocate. */
  darUncompressed: { maxEntryBytes: number; maxTotalBytes: number };
  /** Concurrent WebSocket streams; one more is refused with MAXIMUM_NUMBER_OF_STREAMS (each may buffer ~1 MiB). */
  maxStreams: number;
  /** A WebSocket whose request message has not arrived this long after the upgrade is closed (ms). */
  streamRequestTimeoutMs: number;
  /** Concurrent TCP connections; more are dropped at once. */
  maxConnections: number;
}

export const defaultSettings = (): SimulatorSettings => ({
  httpListMaxElementsLimit: 200,
  maxDeduplicationMicros: 7n * 24n * 3600n * 1_000_000n,
  streamIdleTimeoutMs: 300,
  maxUsersPageSize: 1000,
  maxPartiesPageSize: 10000,
  maxIdentityProviderConfigs: 10,
  groupCommit: true,
  maxDarBytes: 256 * 1024 * 1024,
  darUncompressed: { maxEntryBytes: 256 * 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024 },
  maxStreams: 100,
  streamRequestTimeoutMs: 10_000,
  maxConnections: 512,
});
