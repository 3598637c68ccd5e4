/**
 * NDJSON export of an update range: one line per update (`{"update":{…}}` as the participant sent
 * it, checkpoints left out), read through the bounded WebSocket `/v2/updates` stream. The file is
 * written as `<name>.part` and renamed when complete; a cancel or failure deletes the partial file.
 * Disk backpressure pauses the participant's socket until the file stream drains.
 */
import { createWriteStream, existsSync } from 'node:fs';
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

function write(opts: ExportOptions, target: string): Promise<ExportResult> {
  const partial = `${target}.part`;
  const interval = opts.progressIntervalMs ?? 100;

  return new Promise<ExportResult>((resolve, reject) => {
    const out = createWriteStream(partial, { flags: 'w', mode: 0o600 });
    let lines = 0;
    let bytes = 0;
    let offset = opts.beginExclusive;
    let lastProgress = 0;
    let settled = false;
    let stream: UpdateStreamHandle | undefined;

    const progress = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastProgress < interval) return;
      lastProgress = now;
      opts.onProgress?.({ lines, offset });
    };

    const abort = async (err: ConsoleError) => {
      if (settled) return;
      settled = true;
      stream?.close();
      out.destroy();
      await rm(partial, { force: true }).catch(() => {});
      reject(err);
    };

    const onAbort = () => void abort(new ConsoleError('CONFLICT', 'Export cancelled'));
    if (opts.signal?.aborted) {
      onAbort();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    out.on('error', (err) => void abort(new ConsoleError('INTERNAL', `Could not write the export file: ${err.message}`)));

    if (opts.endInclusive <= opts.beginExclusive) {
      // Empty range: an empty file, no request needed.
      out.end(() => void finish());
    } else {
      stream = openUpdateStream({
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
            if (!out.write(line) && stream && !stream.paused) {
              stream.pause();
              out.once('drain', () => stream?.resume());
            }
          }
          progress(false);
        },
        onError: (err) => void abort(err),
        onEnd: (complete) => {
          if (settled) return;
          if (!complete) {
            void abort(new ConsoleError('UNREACHABLE', 'The update stream ended before the export was complete'));
            return;
          }
          offset = opts.endInclusive;
          out.end(() => void finish());
        },
      });
    }

    async function finish() {
      if (settled) return;
      try {
        await rename(partial, target);
      } catch (err) {
        await abort(new ConsoleError('INTERNAL', `Could not finish the export file: ${(err as Error).message}`));
        return;
      }
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      progress(true);
      resolve({ path: target, lines, bytes });
    }
  });
}
