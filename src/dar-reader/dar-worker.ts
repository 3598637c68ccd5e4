/**
 * Worker thread entry of `dar-decoder.ts`: reads one DAR per message with `src/daml-lf` (zip, manifest, every DALF's
 * hash, the LF2 packages) and answers with the decoded `Dar` or the reader's error. It imports nothing but
 * `src/daml-lf`, so its bundle (`dist/electron/dar-worker.cjs`) holds the Daml-LF reader only.
 */
import { parentPort } from 'node:worker_threads';
import { DamlLfError, readDar } from '../daml-lf/index.js';
import type { DarWorkerRequest, DarWorkerResponse } from './dar-worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('dar-worker must run in a worker thread');

port.on('message', (req: DarWorkerRequest) => {
  let res: DarWorkerResponse;
  try {
    const dar = readDar(new Uint8Array(req.bytes), req.limits ?? {});
    res = { id: req.id, ok: true, dar };
  } catch (e) {
    res =
      e instanceof DamlLfError
        ? { id: req.id, ok: false, damlLf: { code: e.code, message: e.message, details: { ...e.details } } }
        : { id: req.id, ok: false, internal: e instanceof Error ? e.message : String(e) };
  }
  // the archives' bytes move to the parent instead of being copied
  const transfer = res.ok ? res.dar.archives.map((a) => a.bytes.buffer as ArrayBuffer) : [];
  port.postMessage(res, [...new Set(transfer)]);
});
