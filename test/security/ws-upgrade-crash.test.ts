/**
 * Issue #13 item 1: a WebSocket upgrade with a token that is not a JWT used to throw synchronously inside the
 * simulator's upgrade handler and take the whole console (the embedded simulator runs in its process) down.
 * Every malformed token must get a spec-shaped refusal (401 with a JsCantonError body) and the process stays up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { openApi } from '../integration/simulator/helpers.js';
import { expectAlive, rawRequest, simulatorPort, startConsole, upgradeRequest } from './net-helpers.js';
import { ifAssigned } from '../support/if-assigned.js';

let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

const badTokens: [string, Record<string, string>][] = [
  ['Authorization: Bearer <not a JWT>', { Authorization: 'Bearer not-a-jwt' }],
  ['Authorization: Basic …', { Authorization: 'Basic dXNlcjpwYXNz' }],
  ['jwt.token subprotocol with one segment', { 'Sec-WebSocket-Protocol': 'daml.ws.auth, jwt.token.garbage' }],
  ['jwt.token subprotocol with an undecodable payload', { 'Sec-WebSocket-Protocol': 'daml.ws.auth, jwt.token.a.%%%.c' }],
  [
    'jwt.token subprotocol whose payload is not an object',
    { 'Sec-WebSocket-Protocol': `daml.ws.auth, jwt.token.e30.${Buffer.from('42').toString('base64url')}.c` },
  ],
];

describe('simulator WebSocket upgrade with a token that is not a JWT', () => {
  it.each(badTokens)('%s → 401 JsCantonError UNAUTHENTICATED, the console stays up', async (_name, headers) => {
    const port = simulatorPort(proc);
    const answer = await rawRequest(port, upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, ...headers }));
    expect(answer.status).toBe(401);
    expect(answer.head.toLowerCase()).toContain('content-type: application/json');
    const body = JSON.parse(answer.body) as { code: string };
    expect(body.code).toBe('UNAUTHENTICATED');
    const validate = openApi().schema('JsCantonError');
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    await expectAlive(proc);
  });

  it('an unknown channel with a bad token is refused the same way, and the process still serves streams', async () => {
    const port = simulatorPort(proc);
    const answer = await rawRequest(port, upgradeRequest('/v2/nope', { Host: `127.0.0.1:${port}`, Authorization: 'Bearer x' }));
    expect(answer.status).toBe(401);
    const ok = await rawRequest(
      port,
      upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
    );
    expect(ok.status).toBe(101);
    ok.socket?.destroy();
    await expectAlive(proc);
  });
});
