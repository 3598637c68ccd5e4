/**
 * NDJSON export of an update range: one line per update (`{"update":{…}}` as the participant sent
 * it, checkpoints left out), read through the bounded WebSocket `/v2/updates` stream. The file is
 * written as `<name>.part` and renamed when complete; a cancel or failure deletes the partial file.
 * Disk backpressure pauses the participant's socket until the file stream drains.
 */
import { createWriteStream, existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ConsoleError } from '../../ipc/errors.js';
import { ExportFileNameSchema } from '../../ipc/contract.js';
import { privateDir } from '../private-files.js';
import { openUpdateStream, type UpdateStreamHandle } from './update-stream.js';
import { isCheckpoint, updateOffset, type UpdateFormat } from './updates.js';

export interface ExportProgress {
  lines: number;
  offset: number;
}

export interface ExportOptions {
  baseUrl: string;
  token: string | null;
  /** The participant refused the token: a different one to reconnect with once (see token-retry.ts). */
  refreshToken?: (rejected: string) => Promise<string | null>;
  updateFormat: UpdateFormat;
  beginExclusive: number;
  endInclusive: number;
  /** Absolute path of the exports folder (created if missing). */
  dir: string;
  fileName: string;
  onProgress?: (p: ExportProgress) => void;
  /** Minimum time between progress callbacks. */
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface ExportResult {
  path: string;
  lines: number;
  bytes: number;
}

/** The operator's file name, validated (no path separators) and given the `.ndjson` extension. */
export function exportFilePath(dir: string, fileName: string): string {
  const parsed = ExportFileNameSchema.safeParse(fileName);
  if (!parsed.success) {
    throw new ConsoleError('BAD_REQUEST', `Invalid file name: ${parsed.error.issues[0]?.message ?? 'invalid'}`, undefined, [
      { path: 'fileName', message: parsed.error.issues[0]?.message ?? 'invalid' },
    ]);
  }
  const name = /\.ndjson$/i.test(parsed.data) ? parsed.data : `${parsed.data}.ndjson`;
  const full = path.resolve(dir, name);
  // Belt and braces: the schema already refuses separators, the result must stay inside `dir`.
  if (path.dirname(full) !== path.resolve(dir)) throw new ConsoleError('BAD_REQUEST', 'The file name must not leave the exports folder');
  return full;
}

export async function exportUpdatesNdjson(opts: ExportOptions): Promise<ExportResult> {
  const target = exportFilePath(opts.dir, opts.fileName);
  if (existsSync(target)) {
    throw new ConsoleError('CONFLICT', `${path.basename(target)} already exists in the exports folder; choose another name`, undefined, [
      { path: 'fileName', message: 'a file with this name already exists' },
    ]);
  }
  privateDir(opts.dir);
  return write(opts, target);
}

/** What streaming an update range needs (the file side — folder and name — is the caller's). */
export type StreamOptions = Omit<ExportOptions, 'dir' | 'fileName'>;

async function write(opts: ExportOptions, target: string): Promise<ExportResult> {
  const partial = `${target}.part`;
  const out = createWriteStream(partial, { flags: 'w', mode: 0o600 });
  try {
    const { lines, bytes } = await writeUpdatesNdjson(opts, out);
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject);
      out.end(() => resolve());
    });
    try {
      await rename(partial, target);
    } catch (err) {
      throw new ConsoleError('INTERNAL', `Could not finish the export file: ${(err as Error).message}`);
    }
    return { path: target, lines, bytes };
  } catch (err) {
    out.destroy();
    await rm(partial, { force: true }).catch(() => {});
    throw err;
  }
}

/**
 * Streams the range into `out` (a file, an HTTP response) as NDJSON and resolves once every line is written (the
 * caller ends `out`). Backpressure from `out` pauses the participant's socket; a cancel or failure rejects.
 */
export function writeUpdatesNdjson(opts: StreamOptions, out: Writable): Promise<{ lines: number; bytes: number }> {
  const interval = opts.progressIntervalMs ?? 100;

  return new Promise((resolve, reject) => {
    let lines = 0;
    let bytes = 0;
    let offset = opts.beginExclusive;
    let lastProgress = 0;
    let settled = false;
    // set once the socket is opened below; the handlers declared before it reach it through this holder
    const socket: { stream?: UpdateStreamHandle } = {};

    const progress = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastProgress < interval) return;
      lastProgress = now;
      opts.onProgress?.({ lines, offset });
    };

    const fail = (err: ConsoleError) => {
      if (settled) return;
      settled = true;
      socket.stream?.close();
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    };

    const onAbort = () => {
      fail(new ConsoleError('CONFLICT', 'Export cancelled'));
    };
    if (opts.signal?.aborted) {
      onAbort();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    out.on('error', (err) => {
      fail(new ConsoleError('INTERNAL', `Could not write the export: ${err.message}`));
    });
    out.on('close', () => {
      if (!settled) fail(new ConsoleError('CONFLICT', 'The export was closed before it was complete'));
    });

    const finish = () => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      progress(true);
      resolve({ lines, bytes });
    };

    if (opts.endInclusive <= opts.beginExclusive) {
      // Empty range: nothing to write, no request needed.
      finish();
      return;
    }
    socket.stream = openUpdateStream({
      baseUrl: opts.baseUrl,
      token: opts.token,
      ...(opts.refreshToken ? { refreshToken: opts.refreshToken } : {}),
      request: { beginExclusive: opts.beginExclusive, endInclusive: opts.endInclusive, updateFormat: opts.updateFormat },
      onUpdate: (update) => {
        if (settled) return;
        offset = Math.max(offset, updateOffset(update));
        if (!isCheckpoint(update)) {
          const line = JSON.stringify({ update }) + '\n';
          lines++;
          bytes += Buffer.byteLength(line);
          const { stream } = socket;
          if (!out.write(line) && stream && !stream.paused) {
            stream.pause();
            out.once('drain', () => stream.resume());
          }
        }
        progress(false);
      },
      onError: (err) => {
        fail(err);
      },
      onEnd: (complete) => {
        if (settled) return;
        if (!complete) {
          fail(new ConsoleError('UNREACHABLE', 'The update stream ended before the export was complete'));
          return;
        }
        offset = opts.endInclusive;
        finish();
      },
    });
  });
}
