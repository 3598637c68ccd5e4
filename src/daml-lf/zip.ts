/**
 * Small zip container reader/writer (PKWARE APPNOTE 6.3): central directory driven, store (0) and deflate (8) only,
 * CRC-32 verified. Decompression uses fflate (pure JS), so this runs in Node and in the renderer alike.
 */
import { deflateSync, inflateSync } from 'fflate';
import { DamlLfError } from './errors.js';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD_LOCATOR = 0x07064b50;

export interface ZipLimits {
  /** Maximum uncompressed size of one entry (default 256 MiB). */
  maxEntryBytes?: number;
  /** Maximum total uncompressed size (default 1 GiB). */
  maxTotalBytes?: number;
}

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly crc32: number;
  /** Decompresses (and CRC-checks) the entry. */
  read(): Uint8Array;
}

export interface ZipArchive {
  readonly entries: ReadonlyMap<string, ZipEntry>;
}

let crcTable: Uint32Array | undefined;
export function crc32(data: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const t = crcTable;
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u16(b: Uint8Array, o: number): number {
  return (b[o] as number) | ((b[o + 1] as number) << 8);
}
function u32(b: Uint8Array, o: number): number {
  return ((b[o] as number) | ((b[o + 1] as number) << 8) | ((b[o + 2] as number) << 16) | ((b[o + 3] as number) << 24)) >>> 0;
}

const nameDecoder = new TextDecoder('utf-8');

function corrupt(message: string): never {
  throw new DamlLfError('CORRUPT_ZIP', `corrupt zip: ${message}`);
}

/** Parses the zip's central directory. Entry data is decompressed lazily by `entry.read()`. */
export function readZip(bytes: Uint8Array, limits: ZipLimits = {}): ZipArchive {
  const maxEntry = limits.maxEntryBytes ?? 256 * 1024 * 1024;
  const maxTotal = limits.maxTotalBytes ?? 1024 * 1024 * 1024;
  const looksLikeZip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

  // Locate the end-of-central-directory record (22 bytes + up to 65535 bytes of comment).
  let eocd = -1;
  const minPos = Math.max(0, bytes.length - 22 - 0xffff);
  for (let p = bytes.length - 22; p >= minPos; p--) {
    if (u32(bytes, p) === SIG_EOCD && p + 22 + u16(bytes, p + 20) === bytes.length) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) {
    // Tolerate a trailing comment whose length field does not match (some writers), as a second pass.
    for (let p = bytes.length - 22; p >= minPos; p--) {
      if (u32(bytes, p) === SIG_EOCD) {
        eocd = p;
        break;
      }
    }
  }
  if (eocd < 0) {
    if (looksLikeZip) corrupt('end of central directory not found (truncated?)');
    throw new DamlLfError('NOT_A_ZIP', `not a zip archive (${bytes.length} bytes, no zip signature)`);
  }
  if (eocd >= 20 && u32(bytes, eocd - 20) === SIG_ZIP64_EOCD_LOCATOR) {
    throw new DamlLfError('UNSUPPORTED_ZIP', 'zip64 archives are not supported');
  }
  const diskNo = u16(bytes, eocd + 4);
  const cdDisk = u16(bytes, eocd + 6);
  const count = u16(bytes, eocd + 10);
  const cdSize = u32(bytes, eocd + 12);
  const cdOffset = u32(bytes, eocd + 16);
  if (diskNo !== 0 || cdDisk !== 0) throw new DamlLfError('UNSUPPORTED_ZIP', 'multi-disk zip archives are not supported');
  if (cdOffset === 0xffffffff || cdSize === 0xffffffff || count === 0xffff) {
    throw new DamlLfError('UNSUPPORTED_ZIP', 'zip64 archives are not supported');
  }
  if (cdOffset + cdSize > eocd) corrupt(`central directory (offset ${cdOffset}, size ${cdSize}) overlaps its end record at ${eocd}`);

  const entries = new Map<string, ZipEntry>();
  let totalDeclared = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cdOffset + cdSize) corrupt(`central directory truncated at entry ${i}`);
    if (u32(bytes, p) !== SIG_CENTRAL) corrupt(`bad central directory signature at entry ${i}`);
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const crc = u32(bytes, p + 16);
    const compressedSize = u32(bytes, p + 20);
    const uncompressedSize = u32(bytes, p + 24);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    const localOffset = u32(bytes, p + 42);
    const next = p + 46 + nameLen + extraLen + commentLen;
    if (next > cdOffset + cdSize) corrupt(`central directory entry ${i} overruns the directory`);
    const name = nameDecoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    p = next;
    if (name.endsWith('/')) continue; // directory
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localOffset === 0xffffffff) {
      throw new DamlLfError('UNSUPPORTED_ZIP', `zip64 entry ${name} is not supported`);
    }
    if ((flags & 1) !== 0) throw new DamlLfError('UNSUPPORTED_ZIP', `entry ${name} is encrypted`);
    if (uncompressedSize > maxEntry) {
      throw new DamlLfError('TOO_LARGE', `entry ${name} declares ${uncompressedSize} bytes, above the ${maxEntry}-byte limit`);
    }
    // Deflate cannot expand more than ~1032:1; a larger claim is corrupt (and would make us allocate for nothing).
    if (method === 8 && uncompressedSize > compressedSize * 1032 + 1024) {
      corrupt(`entry ${name}: declares ${uncompressedSize} bytes from ${compressedSize} compressed bytes`);
    }
    totalDeclared += uncompressedSize;
    if (totalDeclared > maxTotal) throw new DamlLfError('TOO_LARGE', `archive declares more than ${maxTotal} uncompressed bytes`);
    if (localOffset + 30 > cdOffset) corrupt(`entry ${name}: local header offset ${localOffset} out of range`);
    if (entries.has(name)) corrupt(`duplicate entry ${name}`);
    entries.set(name, {
      name,
      method,
      compressedSize,
      uncompressedSize,
      crc32: crc,
      read: () => readEntry(bytes, name, method, localOffset, compressedSize, uncompressedSize, crc, cdOffset),
    });
  }
  if (p !== cdOffset + cdSize) corrupt(`central directory size ${cdSize} does not match its ${count} entries`);
  return { entries };
}

function readEntry(
  bytes: Uint8Array,
  name: string,
  method: number,
  localOffset: number,
  compressedSize: number,
  uncompressedSize: number,
  crc: number,
  dataLimit: number,
): Uint8Array {
  if (u32(bytes, localOffset) !== SIG_LOCAL) corrupt(`entry ${name}: bad local header signature`);
  const start = localOffset + 30 + u16(bytes, localOffset + 26) + u16(bytes, localOffset + 28);
  if (start + compressedSize > dataLimit) corrupt(`entry ${name}: data overruns the archive`);
  const raw = bytes.subarray(start, start + compressedSize);
  let data: Uint8Array;
  if (method === 0) {
    if (compressedSize !== uncompressedSize) corrupt(`stored entry ${name}: sizes differ`);
    data = raw.slice();
  } else if (method === 8) {
    try {
      // With an output buffer of the declared size fflate never grows it; CRC-32 then catches any size mismatch.
      data = inflateSync(raw, { out: new Uint8Array(uncompressedSize) });
    } catch (e) {
      corrupt(`entry ${name}: invalid deflate stream (${e instanceof Error ? e.message : String(e)})`);
    }
    if (data.length !== uncompressedSize) corrupt(`entry ${name}: inflated to ${data.length} bytes, expected ${uncompressedSize}`);
  } else {
    throw new DamlLfError('UNSUPPORTED_ZIP', `entry ${name}: compression method ${method} is not supported`);
  }
  const actual = crc32(data);
  if (actual !== crc) corrupt(`entry ${name}: CRC-32 mismatch (${actual.toString(16)} != ${crc.toString(16)})`);
  return data;
}

export interface ZipWriteEntry {
  name: string;
  data: Uint8Array;
  /** Deflate the entry (default true). */
  deflate?: boolean;
}

/** Writes a zip (deterministic: fixed 1980-01-01 timestamps, UTF-8 names). */
export function writeZip(files: readonly ZipWriteEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const f of files) {
    const name = enc.encode(f.name);
    const method = f.deflate === false ? 0 : 8;
    const body = method === 8 ? deflateSync(f.data, { level: 6 }) : f.data;
    const crc = crc32(f.data);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, SIG_LOCAL, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true);
    lv.setUint16(8, method, true);
    lv.setUint16(10, 0, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, f.data.length, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, 0, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, SIG_CENTRAL, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint16(12, 0, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, f.data.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, body);
    central.push(cd);
    offset += local.length + body.length;
  }
  let cdSize = 0;
  for (const c of central) cdSize += c.length;
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, SIG_EOCD, true);
  ev.setUint16(8, files.length, true);
  ev.setUint16(10, files.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const all = [...parts, ...central, eocd];
  const out = new Uint8Array(offset + cdSize + 22);
  let o = 0;
  for (const a of all) {
    out.set(a, o);
    o += a.length;
  }
  return out;
}
