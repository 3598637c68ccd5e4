/**
 * The one way files leave the console: a producer writes the file into a stream, a sink takes it where the operator
 * gets it — the browser host serves it as a download over HTTP (src/host/downloads.ts), Electron writes it to the
 * path chosen in a save dialog (electron/exports.ts). Both count the bytes on the way, so every export ends with the
 * same facts: file name, size, lines when it has lines, and where it went.
 */
import { Transform, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ExportLocation } from '../../ipc/channels/exports.js';
import { ConsoleError } from '../../ipc/errors.js';

export interface ProducerProgress {
  lines?: number;
  /** 0..1 when the producer knows how far it is. */
  fraction?: number;
}

/** A file to export: its name and type, and how to write it (into `out`, without ending it). */
export interface ExportFile {
  fileName: string;
  mediaType: string;
  write(out: Writable, progress: (p: ProducerProgress) => void, signal: AbortSignal): Promise<{ lines?: number }>;
}

export interface DeliveryProgress extends ProducerProgress {
  bytes: number;
}

export interface DeliveryEvents {
  /** Browser host: the renderer is to fetch the file from this same-origin URL. */
  ready(url: string): void;
  progress(p: DeliveryProgress): void;
}

export interface Delivered {
  fileName: string;
  bytes: number;
  lines?: number;
  location: ExportLocation;
}

export interface ExportSink {
  /** Resolves with what was delivered, or null when the operator declined (closed the save dialog). */
  deliver(file: ExportFile, events: DeliveryEvents, signal: AbortSignal): Promise<Delivered | null>;
}

/** A file whose whole text the console holds already (audit log, sealed backup, request files). */
export function textFile(fileName: string, mediaType: string, text: string): ExportFile {
  return {
    fileName,
    mediaType,
    write(out) {
      out.write(text);
      return Promise.resolve({});
    },
  };
}

/**
 * Writes `file` into `dest` through a byte counter, with backpressure, and ends `dest`; resolves with the bytes and
 * lines written once `dest` has taken everything. A cancel (`signal`) or a failing `dest` rejects.
 */
export async function pump(
  file: ExportFile,
  dest: Writable,
  events: Pick<DeliveryEvents, 'progress'>,
  signal: AbortSignal,
): Promise<{ bytes: number; lines?: number }> {
  let bytes = 0;
  let last: ProducerProgress = {};
  const counter = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      done(null, chunk);
    },
  });
  counter.pipe(dest);
  const destDone = finished(dest);
  // a failing destination stops the producer: its next write sees the counter destroyed
  destDone.catch(() => counter.destroy());
  if (signal.aborted) throw new ConsoleError('CANCELLED', 'The export was cancelled');
  const { lines } = await file.write(
    counter,
    (p) => {
      last = p;
      events.progress({ bytes, ...p });
    },
    signal,
  );
  counter.end();
  await destDone.catch((err: unknown) => {
    throw new ConsoleError('INTERNAL', `Could not deliver the export: ${err instanceof Error ? err.message : String(err)}`);
  });
  const count = lines ?? last.lines;
  events.progress({ bytes, ...(count !== undefined ? { lines: count } : {}), fraction: 1 });
  return { bytes, ...(count !== undefined ? { lines: count } : {}) };
}
