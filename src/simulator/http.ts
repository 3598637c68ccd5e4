/** Small HTTP helpers: body reading, JSON/text replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { CantonError, DecodeError, errorText } from './errors.js';

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The request body as text; rejects (and stops reading) past MAX_BODY_BYTES. Events, not `for await`: cheaper per request. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        reject(new DecodeError(`Request body exceeds ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onClose = (): void => {
      if (!req.complete) onError(new Error('The request was aborted before its body was read'));
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Parse JSON text and validate it with a zod schema; failures are decode errors (400 text/plain). */
export function decodeJson<T>(text: string, schema: z.ZodType<T>, what = 'body'): T {
  let raw: unknown;
  try {
    // a blank body is no body (a test, not a trimmed copy of every body)
    raw = /\S/.test(text) ? JSON.parse(text) : undefined;
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
