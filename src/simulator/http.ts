/** Small HTTP helpers: body reading, JSON/text replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { CantonError, DecodeError, errorText } from './errors.js';

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY_BYTES) throw new DecodeError(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parse JSON text and validate it with a zod schema; failures are decode errors (400 text/plain). */
export function decodeJson<T>(text: string, schema: z.ZodType<T>, what = 'body'): T {
  let raw: unknown;
  try {
    raw = text.trim() === '' ? undefined : JSON.parse(text);
  } catch (e) {
    throw new DecodeError(`Invalid value for: ${what} (${errorText(e)})`);
  }
  return decodeValue(raw, schema, what);
}

export function decodeValue<T>(raw: unknown, schema: z.ZodType<T>, what = 'body'): T {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues
      .slice(0, 5)
      .map((i) => `${i.message} at '${i.path.length ? i.path.join('.') : '(root)'}'`)
      .join(', ');
    throw new DecodeError(`Invalid value for: ${what} (${issues})`);
  }
  return r.data;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof DecodeError) {
    sendText(res, 400, err.message);
    return;
  }
  if (err instanceof CantonError) {
    sendJson(res, err.httpStatus, err.toBody());
    return;
  }
  const internal = new CantonError('INTERNAL', `Internal simulator error: ${errorText(err)}`);
  sendJson(res, internal.httpStatus, internal.toBody());
}
