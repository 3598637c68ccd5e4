/**
 * What every HTTP and WebSocket client of a profile asks for its `Authorization`: a token source per
 * profile. Implementations cache as they see fit; callers ask per request so a refreshed token is
 * picked up. Tokens stay in the main process: nothing here logs them or puts them in an error.
 */
export interface AccessToken {
  /** The bearer token (a JWT for Canton participants). */
  value: string;
  /** Epoch milliseconds when it stops being valid, when known (`expires_in` or the JWT's `exp`). */
  expiresAt: number | null;
}

export interface TokenProvider {
  /** A token usable now, or null when the profile sends no `Authorization` at all. */
  token(): Promise<AccessToken | null>;
  /**
   * The participant refused `rejected` (HTTP 401): a different token to retry once with, or null when
   * there is none (e.g. a static token that has not changed), so the caller reports the 401 instead.
   */
  refresh(rejected: string): Promise<AccessToken | null>;
}

/** Profiles without authentication (the embedded simulator, open participants). */
export const NO_TOKEN: TokenProvider = {
  token: () => Promise.resolve(null),
  refresh: () => Promise.resolve(null),
};
