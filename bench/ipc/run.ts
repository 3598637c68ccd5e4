/**
 * IPC cost benchmark: `npx tsx bench/ipc/run.ts [--n 50]`. Not part of `npm test`.
 *
 * 1. A live-tail batch (2,000 update summaries, what `updates.stream` sends every 100 ms at full speed) from the
 *    handler to the view over the browser host's path: main's parse of the event with the contract schema,
 *    JSON frame, the renderer's JSON.parse and frame check — and, as the baseline, the renderer's second parse
 *    of the event with the same schema that the client used to do.
 * 2. A 1 MiB DAR chunk from the renderer to the handler: as bytes (binary WebSocket frame, src/ipc/bytes-frame.ts)
 *    against the baseline of base64 in a JSON text frame (renderer btoa, schema regex over the text, Buffer decode).
 *    Electron's IPC is approximated by structuredClone of the payload (its serialization is the structured clone).
 * Medians over --n rounds after warm-up, with the ratio to the baseline of the same run.
 */
import os from 'node:os';
import { decodeBinaryFrame, encodeClientFrame } from '../../src/ipc/bytes-frame.js';
import { DAR_CHUNK_BYTES, UploadChunkSchema } from '../../src/ipc/channels/packages.js';
import type { UpdateSummary } from '../../src/ipc/channels/updates.js';
import { subscriptions } from '../../src/ipc/contract.js';
import { ClientMessageSchema, ServerMessageSchema } from '../../src/ipc/wire.js';
import { z } from 'zod';

const nIndex = process.argv.indexOf('--n');
const N = nIndex >= 0 ? Number(process.argv[nIndex + 1]) : 50;

function median(f: () => void): number {
  for (let i = 0; i < 5; i++) f();
  const xs: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    f();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? Number.NaN;
}

const row = (name: string, ms: number, baseline: number) =>
  console.log(`| ${name} | ${ms.toFixed(2)} ms | ${baseline.toFixed(2)} ms | ${(baseline / ms).toFixed(2)}× |`);

// --- 1. live-tail batch -----------------------------------------------------------------------------------------
const party = (i: number) => `party-${i % 50}::1220${'ab'.repeat(32)}`;
const items: UpdateSummary[] = Array.from({ length: 2_000 }, (_, i) => ({
  offset: 1_000_000 + i,
  kind: 'transaction',
  updateId: `1220${i.toString(16).padStart(64, '0')}`,
  recordTime: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  effectiveAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  commandId: `cmd-${i}`,
  workflowId: null,
  synchronizerId: `global-domain::1220${'cd'.repeat(32)}`,
  eventCount: 3,
  counts: { created: 1, archived: 1, exercised: 1, assigned: 0, unassigned: 0, topology: 0 },
  templates: ['Splice.Amulet:Amulet', 'Splice.AmuletRules:AmuletRules'],
  parties: [party(i), party(i + 1), party(i + 2)],
  partyCount: 3,
}));
const eventSchema = subscriptions['updates.stream'].event;
const event = { type: 'batch' as const, items, offset: 1_002_000 };

const mainParse = () => eventSchema.parse(event);
const wire = () => JSON.stringify({ type: 'event', id: 7, event: mainParse() });
const rendererFrame = (text: string) => {
  const msg = ServerMessageSchema.parse(JSON.parse(text));
  if (msg.type !== 'event') throw new Error('expected an event frame');
  return msg.event;
};
const text = wire();
const after = median(() => rendererFrame(wire()));
const before = median(() => eventSchema.parse(rendererFrame(wire())));
const rendererParse = median(() => eventSchema.parse(rendererFrame(text)));
const rendererFrameOnly = median(() => rendererFrame(text));

console.log(`IPC cost, ${N} rounds each (medians), Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1) ?? '?'}`);
console.log(`\nLive-tail batch of 2,000 updates (${(text.length / 1024).toFixed(0)} KiB of JSON), handler → view, browser host path`);
console.log('| path | now | before (baseline) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
row('main parse + frame + renderer frame check (no second parse)', after, before);
row('renderer side only (JSON.parse + frame check)', rendererFrameOnly, rendererParse);
console.log(`main's parse of the event alone: ${median(mainParse).toFixed(2)} ms; the 100 ms batch interval is the budget.`);

// --- 2. DAR chunk -------------------------------------------------------------------------------------------------
const chunk = new Uint8Array(DAR_CHUNK_BYTES).map((_, i) => (i * 7919) % 256);
const uploadId = 'a'.repeat(32);
/** The renderer's former encoder (32 KiB slices through btoa) and the former schema: base64 text. */
const toBase64 = (bytes: Uint8Array) => {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
};
const OldChunkSchema = z
  .object({
    uploadId: z.string(),
    offset: z.number().int().nonnegative(),
    data: z
      .string()
      .min(1)
      .max(Math.ceil(DAR_CHUNK_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/),
  })
  .strict();

let base64Frame = '';
const viaBase64 = () => {
  base64Frame = JSON.stringify({
    type: 'invoke',
    id: 1,
    channel: 'packages.upload.chunk',
    payload: { uploadId, offset: 0, data: toBase64(chunk) },
  });
  const msg = ClientMessageSchema.parse(JSON.parse(base64Frame));
  if (msg.type !== 'invoke') throw new Error('expected invoke');
  const req = OldChunkSchema.parse(msg.payload);
  return Buffer.from(req.data, 'base64');
};
let binaryFrame: Uint8Array = new Uint8Array(0);
const viaBytes = () => {
  binaryFrame = encodeClientFrame({
    type: 'invoke',
    id: 1,
    channel: 'packages.upload.chunk',
    payload: { uploadId, offset: 0, data: chunk },
  }) as Uint8Array;
  const msg = ClientMessageSchema.parse(decodeBinaryFrame(binaryFrame));
  if (msg.type !== 'invoke') throw new Error('expected invoke');
  return UploadChunkSchema.parse(msg.payload).data;
};
if (!Buffer.from(viaBytes()).equals(viaBase64())) throw new Error('the two paths disagree');
const bytesMs = median(viaBytes);
const base64Ms = median(viaBase64);
const cloneBytes = median(() => UploadChunkSchema.parse(structuredClone({ uploadId, offset: 0, data: chunk })));
const cloneBase64 = median(() =>
  Buffer.from(OldChunkSchema.parse(structuredClone({ uploadId, offset: 0, data: toBase64(chunk) })).data, 'base64'),
);

console.log(`\n1 MiB DAR chunk, renderer → handler (encode, frame, decode, validate)`);
console.log('| path | bytes | base64 (baseline) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
row('browser host WebSocket', bytesMs, base64Ms);
row('Electron IPC (structured clone)', cloneBytes, cloneBase64);
console.log(
  `frame size: ${(binaryFrame.length / 1024).toFixed(0)} KiB as bytes, ` +
    `${(base64Frame.length / 1024).toFixed(0)} KiB as base64 JSON (${(base64Frame.length / binaryFrame.length).toFixed(2)}×)`,
);
