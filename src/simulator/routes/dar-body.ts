/**
 * Limits on DAR uploads, so that uploads cannot exhaust the memory of the process the simulator runs in (the console's,
 * when embedded): a body larger than `settings.maxDarBytes` is refused — from its Content-Length before a byte is read,
 * else as soon as it grows past the limit — and one upload is read and decoded at a time. The others wait with their
 * bodies unread, so TCP holds them back at the client instead of the simulator buffering them.
 */
import type { IncomingMessage } from 'node:http';
import { CantonError } from '../errors.js';

const tooLarge = (max: number): CantonError =>
  new CantonError('ZIP_BOMB', `The DAR exceeds ${max} bytes`, { context: { limit: String(max) } });

/** The request body as bytes, at most `max` of them (one allocation when the Content-Length is known). */
export async function readDarBody(req: IncomingMessage, max: number): Promise<Uint8Array> {
  const header = req.headers['content-length'];
  const declared = header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
  if (declared !== undefined && declared > max) throw tooLarge(max);
  const out = declared !== undefined ? new Uint8Array(declared) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    if (size + b.length > max) throw tooLarge(max);
    if (out) out.set(b, size);
    else chunks.push(b);
    size += b.length;
  }
  return out ? out.subarray(0, size) : new Uint8Array(Buffer.concat(chunks, size));
}

/** Runs `fn` when no other upload runs (FIFO): one DAR body read and decoded at a time. */
export function oneAtATime(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
