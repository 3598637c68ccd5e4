/**
 * The embedded demo simulator answers only the console (option `consoleOnly`). It runs without authentication in the
 * console's process, so a web page must not reach it: browsers name themselves on every cross-origin request (an
 * `Origin` header on POSTs and WebSockets, Fetch Metadata `Sec-Fetch-Site` on everything, also no-cors GETs), while
 * the console's Node clients send neither. A Host other than the loopback address and port the simulator listens on
 * is a DNS-rebinding page (or a request meant for someone else). Refusals are 403 JsCantonErrors, before routing,
 * authentication or reading the body. The standalone simulator (`npm run sim`) does not apply this: it serves SDKs
 * and curl on any Host, as a participant does.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CantonError } from './errors.js';

const refusal = (why: string): CantonError =>
  new CantonError('PERMISSION_DENIED', `The embedded simulator answers only the console: ${why}`, { context: { reason: why } });

/** Why a request must be refused, or undefined when it may be served. `port` is the simulator's listening port. */
export function consoleOnlyRefusal(headers: IncomingHttpHeaders, port: number): CantonError | undefined {
  const host = headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}` && host !== `[::1]:${port}`)
    return refusal(`the Host header must be 127.0.0.1:${port} or localhost:${port}`);
  if (headers.origin !== undefined) return refusal('requests from web pages (with an Origin header) are refused');
  const site = headers['sec-fetch-site'];
  // 'none': the user typed the URL into the address bar, nothing a page can cause
  if (site !== undefined && site !== 'none') return refusal(`requests from web pages (Sec-Fetch-Site: ${site}) are refused`);
  return undefined;
}
