/**
 * One reconnect with a fresh token when a participant refuses a WebSocket's token (401 at the handshake, or
 * UNAUTHENTICATED before any data): OAuth2 tokens expire and identity providers rotate keys, so a long-lived
 * console must not make the operator reopen the stream by hand. A second refusal is final.
 */
import type { WebSocket } from 'ws';
import { ConsoleError } from '../../ipc/errors.js';

export interface RetryingSocketDeps {
  /** The profile's token refresh: a different token, or null when there is none. */
  refreshToken: ((rejected: string) => Promise<string | null>) | undefined;
  /** The stream already delivered data or its owner closed it: a refusal now is reported as it is. */
  settled: () => boolean;
  /** Its owner closed it while the fresh token was being obtained. */
  closed: () => boolean;
  /** Opens one socket; its handlers ignore their events unless `isCurrent(socket)`. */
  connect: (token: string | null) => WebSocket;
  /** Report `err` and end the stream. */
  giveUp: (err: ConsoleError) => void;
}

/** The stream's current socket, replaced at most once after a refused token. */
export class RetryingSocket {
  private current: WebSocket | null = null;
  private used = false;

  constructor(private readonly deps: RetryingSocketDeps) {}

  start(token: string | null): void {
    this.current = this.deps.connect(token);
  }

  /** Null while a fresh token is being obtained. */
  get socket(): WebSocket | null {
    return this.current;
  }

  isCurrent(socket: WebSocket): boolean {
    return socket === this.current;
  }

  /** `token` was refused: true when a reconnect is under way (the refusal is then not reported). */
  retry(token: string | null, refusal: ConsoleError): boolean {
    const refresh = this.deps.refreshToken;
    if (!token || !refresh || this.used || this.deps.settled()) return false;
    this.used = true;
    const old = this.current;
    this.current = null;
    old?.terminate();
    refresh(token)
      .then((fresh) => {
        if (this.deps.closed()) return;
        if (fresh && fresh !== token) this.start(fresh);
        else this.deps.giveUp(refusal);
      })
      .catch((e: unknown) => {
        if (!this.deps.closed()) this.deps.giveUp(e instanceof ConsoleError ? e : refusal);
      });
    return true;
  }
}
