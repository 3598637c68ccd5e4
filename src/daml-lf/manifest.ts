/**
 * `META-INF/MANIFEST.MF` of a DAR (JAR manifest syntax): `Name: value` headers, lines of at most 72 bytes, continuation
 * lines starting with one space. Damlc writes `Main-Dalf`, `Dalfs` (comma separated), `Sdk-Version`, `Format: daml-lf`,
 * `Encryption: non-encrypted`, `Name`.
 */
import { DamlLfError } from './errors.js';

export interface DarManifest {
  mainDalf: string;
  /** All DALFs listed in `Dalfs:` (the main one included), in manifest order. Empty if the header is absent. */
  dalfs: string[];
  sdkVersion?: string;
  name?: string;
  format?: string;
  encryption?: string;
  /** Every header, continuation lines joined. */
  headers: Record<string, string>;
}

export const MANIFEST_PATH = 'META-INF/MANIFEST.MF';

/** Parses manifest text; throws MALFORMED_MANIFEST on syntax errors or a missing `Main-Dalf`. */
export function parseManifest(text: string): DarManifest {
  const headers: Record<string, string> = {};
  let last: string | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [i, line] of lines.entries()) {
    if (line === '') {
      // A blank line ends the main section; per-entry sections (Name: <entry> ...) follow and are not needed here.
      if (Object.keys(headers).length > 0) break;
      continue;
    }
    if (line.startsWith(' ')) {
      if (last === undefined) throw new DamlLfError('MALFORMED_MANIFEST', `manifest line ${i + 1}: continuation without a header`);
      headers[last] = (headers[last] ?? '') + line.slice(1);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new DamlLfError('MALFORMED_MANIFEST', `manifest line ${i + 1}: expected "Name: value"`);
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (Object.prototype.hasOwnProperty.call(headers, key)) {
      throw new DamlLfError('MALFORMED_MANIFEST', `manifest line ${i + 1}: duplicate header ${key}`);
    }
    headers[key] = value;
    last = key;
  }
  const mainDalf = headers['Main-Dalf']?.trim();
  if (mainDalf === undefined || mainDalf === '') throw new DamlLfError('MALFORMED_MANIFEST', 'manifest has no Main-Dalf header');
  const dalfsHeader = headers['Dalfs'];
  const dalfs =
    dalfsHeader === undefined
      ? []
      : dalfsHeader
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const m: DarManifest = { mainDalf, dalfs, headers };
  const opt = (k: string): string | undefined => headers[k]?.trim();
  const sdk = opt('Sdk-Version');
  if (sdk !== undefined) m.sdkVersion = sdk;
  const name = opt('Name');
  if (name !== undefined) m.name = name;
  const format = opt('Format');
  if (format !== undefined) m.format = format;
  const enc = opt('Encryption');
  if (enc !== undefined) m.encryption = enc;
  return m;
}

const encoder = new TextEncoder();

/** Renders headers as a JAR manifest with 72-byte lines and continuation lines, CRLF line ends. */
export function renderManifest(headers: ReadonlyArray<readonly [string, string]>): string {
  const out: string[] = [];
  for (const [k, v] of headers) {
    let line = `${k}: ${v}`;
    let first = true;
    while (encoder.encode(line).length > (first ? 72 : 71)) {
      // Split at 72 bytes (71 + leading space on continuation lines); names here are ASCII, so chars == bytes.
      const cut = first ? 72 : 71;
      out.push((first ? '' : ' ') + line.slice(0, cut));
      line = line.slice(cut);
      first = false;
    }
    out.push((first ? '' : ' ') + line);
  }
  return out.join('\r\n') + '\r\n\r\n';
}
