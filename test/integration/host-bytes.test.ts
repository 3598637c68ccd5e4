/**
 * Bytes across the browser host's WebSocket as bytes (src/ipc/bytes-frame.ts): a DAR chunk travels as a binary
 * frame and reaches the handler byte for byte; malformed binary frames are refused with a protocol error and the
 * connection keeps working. Plus the framing itself, both ways.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startHost, type RunningHost } from '../../src/host/server.js';
import { decodeBinaryFrame, encodeClientFrame, FrameError } from '../../src/ipc/bytes-frame.js';
import { ConsoleClient, IpcCallError } from '../../src/ipc/client.js';
import { createRouter, type Handlers } from '../../src/ipc/router.js';
import { WebSocketTransport, type WsLike } from '../../src/ipc/ws-transport.js';
import { DAR_CHUNK_BYTES } from '../../src/ipc/channels/packages.js';
import { withHandlers, withSubscriptions } from '../support/handlers.js';
import { stringMatching } from '../support/matchers.js';

let host: RunningHost;
let dir: string;
const received: Uint8Array[] = [];

const handlers = {
  'packages.upload.chunk': ({ data, offset }) => {
    received.push(Uint8Array.from(data));
    return Promise.resolve({ received: offset + data.length });
  },
} satisfies Partial<Handlers>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'host-bytes-'));
  host = await startHost({ router: createRouter(withHandlers(handlers), withSubscriptions({})), staticDir: dir });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function connect(): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
}

describe('bytes over the browser host', () => {
  it('delivers a full-size DAR chunk byte for byte in one binary frame', async () => {
    const ws = await connect();
    const sent: (string | Uint8Array)[] = [];
    const socket: WsLike = {
      get readyState() {
        return ws.readyState;
      },
      send: (data) => {
        sent.push(data);
        ws.send(data);
      },
      close: () => ws.close(),
      addEventListener: (type, listener) => ws.addEventListener(type, (ev) => listener(ev as { data?: unknown })),
    };
    const client = new ConsoleClient(new WebSocketTransport(socket));
    const data = new Uint8Array(DAR_CHUNK_BYTES).map((_, i) => (i * 7919) % 256);
    const r = await client.call('packages.upload.chunk', { uploadId: 'a'.repeat(32), offset: 0, data });
    expect(r.received).toBe(DAR_CHUNK_BYTES);
    // (compared as Buffers: a deep equality over a million elements is slow)
    expect(Buffer.from(received.at(-1) ?? []).equals(data)).toBe(true);
    const frame = sent.at(-1);
    expect(frame).toBeInstanceOf(Uint8Array);
    // The bytes travel as bytes: the frame is the chunk plus a small JSON header, not 4/3 of it.
    expect((frame as Uint8Array).length).toBeLessThan(DAR_CHUNK_BYTES + 200);
    ws.close();
  });

  it('refuses a chunk that is not bytes, or too large, before the handler', async () => {
    const ws = await connect();
    const client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
    const calls = received.length;
    const notBytes = client.call('packages.upload.chunk', { uploadId: 'a'.repeat(32), offset: 0, data: 'AAAA' as unknown as Uint8Array });
    await expect(notBytes).rejects.toBeInstanceOf(IpcCallError);
    await expect(notBytes).rejects.toMatchObject({ error: { code: 'BAD_REQUEST' } });
    const tooLarge = client.call('packages.upload.chunk', {
      uploadId: 'a'.repeat(32),
      offset: 0,
      data: new Uint8Array(DAR_CHUNK_BYTES + 1),
    });
    await expect(tooLarge).rejects.toMatchObject({ error: { code: 'BAD_REQUEST' } });
    expect(received.length).toBe(calls);
    ws.close();
  });

  it('answers malformed binary frames with a protocol error and keeps the connection', async () => {
    const ws = await connect();
    const bad = [
      new Uint8Array([0, 0]),
      new Uint8Array([0, 0, 0, 50, 1, 2]),
      Uint8Array.from([0, 0, 0, 2, 0xff, 0xfe]),
      (() => {
        const f = encodeClientFrame({ type: 'invoke', id: 1, channel: 'packages.upload.chunk', payload: { data: new Uint8Array(4) } });
        return (f as Uint8Array).subarray(0, (f as Uint8Array).length - 1);
      })(),
    ];
    for (const frame of bad) {
      const answer = nextMessage(ws);
      ws.send(frame);
      expect(await answer).toMatchObject({
        type: 'protocolError',
        error: { code: 'BAD_REQUEST', message: stringMatching(/^Malformed binary frame/) },
      });
    }
    const client = new ConsoleClient(new WebSocketTransport(ws as unknown as WsLike));
    await expect(client.call('packages.upload.chunk', { uploadId: 'a'.repeat(32), offset: 0, data: new Uint8Array([1]) })).resolves.toEqual(
      { received: 1 },
    );
    ws.close();
  });
});

describe('bytes framing', () => {
  it('keeps messages without bytes as JSON text', () => {
    expect(encodeClientFrame({ type: 'invoke', id: 1, channel: 'app.info', payload: {} })).toBe(
      '{"type":"invoke","id":1,"channel":"app.info","payload":{}}',
    );
  });

  it('round-trips nested byte arrays, Node Buffers included, and empty ones', () => {
    const message = { a: [new Uint8Array([1, 2, 3]), { b: Buffer.from('xyz') }], c: new Uint8Array(0), d: 'text' };
    const frame = encodeClientFrame(message);
    expect(frame).toBeInstanceOf(Uint8Array);
    const back = decodeBinaryFrame(frame as Uint8Array) as { a: [Uint8Array, { b: Uint8Array }]; c: Uint8Array; d: string };
    expect(back.a[0]).toEqual(new Uint8Array([1, 2, 3]));
    expect(Buffer.from(back.a[1].b).toString()).toBe('xyz');
    expect(back.c).toEqual(new Uint8Array(0));
    expect(back.d).toBe('text');
  });

  it('refuses the reserved key, unknown attachments and a header that is not { message, sizes }', () => {
    expect(() => encodeClientFrame({ $bytes: 1 })).toThrow(FrameError);
    const header = (h: unknown) => {
      const json = new TextEncoder().encode(JSON.stringify(h));
      const f = new Uint8Array(4 + json.length);
      new DataView(f.buffer).setUint32(0, json.length);
      f.set(json, 4);
      return f;
    };
    expect(() => decodeBinaryFrame(header({ message: { x: { $bytes: 0 } }, sizes: [] }))).toThrow(/attachment 0 of 0/);
    expect(() => decodeBinaryFrame(header({ message: 1 }))).toThrow(/not \{ message, sizes \}/);
    expect(() => decodeBinaryFrame(header({ message: 1, sizes: [5] }))).toThrow(/length does not match/);
  });
});
