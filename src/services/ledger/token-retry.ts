/**
 * One reconnect with a fresh token when a participant refuses a WebSocket's token (401 at the handshake, or
 * UNAUTHENTICATED before any data): OAuth2 tokens expire and identity providers rotate keys, so a long-lived
 * console must not make the operator reopen the stream by hand. A second refusal is final.
 */
import { ConsoleError } from '../../ipc/errors.js';

export interface TokenRetryDeps {
  /** The profile's token refresh: a different token, or null when there is none. */
  refreshToken: ((rejected: string) => Promise<string | null>) | undefined;
  /** The stream already delivered data or its owner closed it: a refusal now is reported as it is. */
  settled: () => boolean;
  /** Its owner closed it while the fresh token was being obtained. */
  closed: () => boolean;
  /** Stop listening to the refused socket. */
  detach: () => void;
  /** Open the stream again with `token`. */
  reconnect: (token: string) => void;
  /** Report `err` and end the stream. */
  giveUp: (err: ConsoleError) => void;
}

/** Returns `retry(token, refusal)`: true when a reconnect is under way (the refusal is then not reported). */
export function tokenRetry(deps: TokenRetryDeps): (token: string | null, refusal: ConsoleError) => boolean {
  let used = false;
  return (token, refusal) => {
    const refresh = deps.refreshToken;
    if (!token || !refresh || used || deps.settled()) return false;
    used = true;
    deps.detach();
    refresh(token)
      .then((fresh) => {
        if (deps.closed()) return;
        if (fresh && fresh !== token) deps.reconnect(fresh);
        else deps.giveUp(refusal);
      })
      .catch((e: unknown) => {
        if (!deps.closed()) deps.giveUp(e instanceof ConsoleError ? e : refusal);
      });
    return true;
  };
}
