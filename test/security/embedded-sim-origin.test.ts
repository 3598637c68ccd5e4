/**
 * Issue #13 item 4: any web page could drive the embedded demo simulator — it checked neither Host nor Origin, so a
 * page on another origin created a party with a simple POST and read the update stream over a cross-site WebSocket.
 * The embedded simulator answers only the console now: a request that carries an `Origin` header, or a browser's
 * `Sec-Fetch-Site` other than `none`, is refused before anything runs (the console's Node clients send neither), and
 * so is a Host that is not the loopback address and port it listens on (DNS rebinding). The standalone `npm run sim`
 * keeps serving real clients (SDKs, curl) on any Host, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleProcess } from '../support/console-process.js';
import { withConsoleClient } from '../support/console-ipc.js';
import { simulatorUrl } from '../support/e2e.js';
import { openApi, startTestSim } from '../integration/simulator/helpers.js';
import { expectAlive, rawRequest, simulatorPort, startConsole, upgradeRequest } from './net-helpers.js';
import { must } from '../support/must.js';
import { ifAssigned } from '../support/if-assigned.js';

const EVIL = 'http://evil.example';
let proc: ConsoleProcess;
beforeAll(async () => {
  proc = await startConsole();
}, 60_000);
afterAll(async () => {
  await ifAssigned(proc)?.stop();
});

/** A raw HTTP request (fetch would not let us set Origin, Host or Sec-Fetch-* as a browser does). */
function httpRequest(method: string, path: string, headers: Record<string, string>, body = ''): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return lines.join('\r\n') + '\r\n\r\n' + body;
}

async function partyHints(): Promise<string[]> {
  const r = (await (await fetch(`${simulatorUrl(proc)}/v2/parties`)).json()) as { partyDetails: { party: string }[] };
  return r.partyDetails.map((p) => must(p.party.split('::')[0], "p.party.split('::')[0]"));
}

function expectRefusal(answer: { status: number | null; body: string }): void {
  expect(answer.status).toBe(403);
  const body = JSON.parse(answer.body) as { code: string };
  expect(openApi().schema('JsCantonError')(body), answer.body).toBe(true);
  expect(body.code).toBe('PERMISSION_DENIED');
}

describe('the embedded simulator answers only the console', () => {
  it('a cross-site simple POST (text/plain, as a form or fetch no-cors sends it) is refused and changes nothing', async () => {
    const port = simulatorPort(proc);
    const host = `127.0.0.1:${port}`;
    const post = (extra: Record<string, string>, hint: string) =>
      rawRequest(
        port,
        httpRequest('POST', '/v2/parties', { Host: host, 'Content-Type': 'text/plain', ...extra }, JSON.stringify({ partyIdHint: hint })),
      );
    // what Chromium sends for a cross-site fetch(…, { method: 'POST', mode: 'no-cors' })
    expectRefusal(
      await post({ Origin: EVIL, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'empty' }, 'EvilA'),
    );
    // an older browser without Fetch Metadata still sends Origin on a POST
    expectRefusal(await post({ Origin: EVIL }, 'EvilB'));
    // a sandboxed iframe or a data: URL sends Origin: null
    expectRefusal(await post({ Origin: 'null' }, 'EvilC'));
    expect(await partyHints()).not.toEqual(expect.arrayContaining([expect.stringMatching(/^Evil/)]));
  });

  it('a cross-site GET without Origin (an <img> or <script> tag) is refused by its Fetch Metadata', async () => {
    const port = simulatorPort(proc);
    const get = await rawRequest(
      port,
      httpRequest('GET', '/v2/parties', {
        Host: `127.0.0.1:${port}`,
        'Sec-Fetch-Site': 'cross-site',
        'Sec-Fetch-Mode': 'no-cors',
        'Sec-Fetch-Dest': 'script',
      }),
    );
    expectRefusal(get);
  });

  it('a cross-site WebSocket to the update stream is refused at the upgrade', async () => {
    const port = simulatorPort(proc);
    const answer = await rawRequest(
      port,
      upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, Origin: EVIL, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
    );
    expectRefusal(answer);
    expect(answer.socket).toBeUndefined();
  });

  it('a Host other than its loopback address and port (DNS rebinding) is refused, for HTTP and WebSocket', async () => {
    const port = simulatorPort(proc);
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${port + 1}`, `127.0.0.1.evil.example:${port}`])
      expectRefusal(await rawRequest(port, httpRequest('GET', '/v2/version', { Host: host })));
    // HTTP/1.1 without Host: Node's parser refuses it before the simulator sees it
    expect((await rawRequest(port, httpRequest('GET', '/v2/version', {}))).status).toBe(400);
    expectRefusal(
      await rawRequest(port, upgradeRequest('/v2/updates', { Host: `evil.example:${port}`, 'Sec-WebSocket-Protocol': 'daml.ws.auth' })),
    );
  });

  it('the console itself, curl-like clients and a browser tab opened on it by the user still get answers', async () => {
    const port = simulatorPort(proc);
    const snapshot = await withConsoleClient(proc, (client) => client.call('dashboard.snapshot', {}));
    expect(snapshot).toBeDefined();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const r = await rawRequest(port, httpRequest('GET', '/v2/version', { Host: host }));
      expect(r.status).toBe(200);
    }
    const typed = await rawRequest(
      port,
      httpRequest('GET', '/v2/version', { Host: `127.0.0.1:${port}`, 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' }),
    );
    expect(typed.status).toBe(200);
    const ws = await rawRequest(
      port,
      upgradeRequest('/v2/updates', { Host: `127.0.0.1:${port}`, 'Sec-WebSocket-Protocol': 'daml.ws.auth' }),
    );
    expect(ws.status).toBe(101);
    ws.socket?.destroy();
    await expectAlive(proc);
  });
});

describe('the standalone simulator (npm run sim) keeps serving real clients', () => {
  it('answers requests without Origin on any Host name, as SDKs and curl send them', async () => {
    const sim = await startTestSim();
    try {
      const port = Number(new URL(sim.url).port);
      const r = await rawRequest(
        port,
        httpRequest(
          'POST',
          '/v2/parties',
          { Host: `participant.example:${port}`, 'Content-Type': 'application/json' },
          '{"partyIdHint":"Curl"}',
        ),
      );
      expect(r.status).toBe(200);
    } finally {
      await sim.dispose();
    }
  });
});
