/**
 * Issue #13 item 2: a TCP reset right after an upgrade request crashed the browser host and the embedded simulator
 * (sockets answered with `socket.end()` had no 'error' listener → uncaught ECONNRESET), no token needed. Here every
 * kind of upgrade request — refused for its path, Host, Origin or token, or accepted — is followed by an RST, 60
 * times per kind, and the console must still be running and answering afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { expectAlive, simulatorPort, startConsole, upgradeRequest, writeThenReset } from './net-helpers.js';
import { ifAssigned } from '../support/if-assigned.js';

const RESETS = 60;
let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

async function resetLoop(port: number, request: () => string): Promise<void> {
  for (let i = 0; i < RESETS; i++) await writeThenReset(port, request());
  // the resets reach the server asynchronously: give it a round trip before asking
  await expectAlive(proc);
}

describe(`an RST right after an upgrade request (${RESETS}× per kind)`, () => {
  it('browser host: wrong path, wrong Host, foreign Origin, missing token, valid upgrade', async () => {
    const port = proc.port;
    const host = `127.0.0.1:${port}`;
    const kinds: (() => string)[] = [
      () => upgradeRequest('/not-ipc', { Host: host, Origin: proc.origin }),
      () => upgradeRequest(`/ipc?token=${proc.token}`, { Host: 'evil.example', Origin: proc.origin }),
      () => upgradeRequest(`/ipc?token=${proc.token}`, { Host: host, Origin: 'http://evil.example' }),
      () => upgradeRequest('/ipc', { Host: host, Origin: proc.origin }),
      () => upgradeRequest(`/ipc?token=${proc.token}`, { Host: host, Origin: proc.origin }),
    ];
    for (const kind of kinds) await resetLoop(port, kind);
    expect(proc.running()).toBe(true);
  });

  it('embedded simulator: non-JWT token, unknown channel, valid upgrade', async () => {
    const port = simulatorPort(proc);
    const host = `127.0.0.1:${port}`;
    const kinds: (() => string)[] = [
      () => upgradeRequest('/v2/updates', { Host: host, Authorization: 'Bearer not-a-jwt' }),
      () => upgradeRequest('/v2/no-such-channel', { Host: host }),
      () => upgradeRequest('/v2/updates', { Host: host, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
    ];
    for (const kind of kinds) await resetLoop(port, kind);
    expect(proc.running()).toBe(true);
  });
});
