/**
 * Bytes over the browser host's WebSocket without base64: a client message whose payload holds `Uint8Array`s is
 * sent as one binary frame, the JSON of the message with each array replaced by `{"$bytes": i}`, followed by the
 * arrays' bytes. Messages without bytes stay text frames. (Electron's IPC needs none of this: its structured
 * clone carries a Uint8Array as is.)
 *
 * Binary frame: u32 big-endian length of the header, the header (UTF-8 JSON `{ message, sizes }`), then the
 * attachments back to back, `sizes[i]` bytes each. Isomorphic: the renderer encodes, the host decodes.
 */
import { z } from 'zod';

const BYTES_KEY = '$bytes';

const Header = z.object({ message: z.unknown(), sizes: z.array(z.number().int().nonnegative()) }).strict();

export class FrameError extends Error {
  override readonly name = 'FrameError';
}

/** JSON text when `message` holds no bytes, else a binary frame. */
export function encodeClientFrame(message: unknown): string | Uint8Array {
  const attachments: Uint8Array[] = [];
  const json = JSON.stringify(message, function (this: Record<string, unknown>, key: string, value: unknown): unknown {
    // `this[key]` is the value before toJSON (a Node Buffer would otherwise arrive here as {type, data}).
    const raw = this[key];
    if (raw instanceof Uint8Array) {
      attachments.push(raw);
      return { [BYTES_KEY]: attachments.length - 1 };
    }
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, BYTES_KEY)) {
      throw new FrameError(`a message may not contain the key "${BYTES_KEY}"`);
    }
    return value;
  });
  if (attachments.length === 0) return json;
  const header = new TextEncoder().encode(
    JSON.stringify({ message: JSON.parse(json) as unknown, sizes: attachments.map((a) => a.length) }),
  );
  const frame = new Uint8Array(4 + header.length + attachments.reduce((n, a) => n + a.length, 0));
  new DataView(frame.buffer).setUint32(0, header.length);
  frame.set(header, 4);
  let at = 4 + header.length;
  for (const a of attachments) {
    frame.set(a, at);
    at += a.length;
  }
  return frame;
}

function isPlaceholder(value: unknown): value is { [BYTES_KEY]: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === BYTES_KEY;
}

/** The message of a binary frame, its placeholders replaced by views of the attached bytes; FrameError when malformed. */
export function decodeBinaryFrame(frame: Uint8Array): unknown {
  if (frame.length < 4) throw new FrameError('binary frame shorter than its header length');
  const headerLength = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  if (4 + headerLength > frame.length) throw new FrameError('binary frame shorter than its header');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(4, 4 + headerLength)));
  } catch {
    throw new FrameError('binary frame header is not UTF-8 JSON');
  }
  const header = Header.safeParse(parsed);
  if (!header.success) throw new FrameError('binary frame header is not { message, sizes }');
  const { sizes } = header.data;
  if (4 + headerLength + sizes.reduce((n, s) => n + s, 0) !== frame.length) {
    throw new FrameError('binary frame length does not match its attachment sizes');
  }
  const attachments: Uint8Array[] = [];
  let at = 4 + headerLength;
  for (const size of sizes) {
    attachments.push(frame.subarray(at, at + size));
    at += size;
  }
  const revive = (value: unknown): unknown => {
    if (isPlaceholder(value)) {
      const bytes = attachments[value[BYTES_KEY]];
      if (!bytes) throw new FrameError(`binary frame refers to attachment ${String(value[BYTES_KEY])} of ${attachments.length}`);
      return bytes;
    }
    if (Array.isArray(value)) return value.map(revive);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
    }
    return value;
  };
  return revive(header.data.message);
}
