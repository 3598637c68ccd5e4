/**
 * A hostile DAR for tests of "reading a DAR never stalls anything else": valid, but crafted to keep the reader busy for
 * seconds, and a condition waiter to observe that the reader is at work.
 */
import { createHash } from 'node:crypto';
import { MANIFEST_PATH, ProtoWriter, readArchive, renderManifest, writeZip, type Dar } from '../../src/daml-lf/index.js';

/** Resolves once `cond()` holds (checked on every turn of the event loop). */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

/**
 * A DAR crafted to keep the reader busy: `copies` archives of the real DAR's main package, each made distinct (and so
 * decoded in full) by an unknown field appended to its payload, with the matching hash; plus the real dependencies.
 * With `badLast`, one more archive at the very end declares a wrong hash: the DAR is refused (HASH_MISMATCH) only
 * after all the work.
 */
export function hostileDar(real: Dar, copies: number, opts: { badLast?: boolean } = {}): Uint8Array {
  const main = real.archives.find((a) => a.packageId === real.main.packageId) as Dar['archives'][number];
  const payload = readArchive(main.bytes).payload;
  const files: { name: string; data: Uint8Array }[] = [];
  for (let i = 0; i < copies; i++) {
    const extra = new ProtoWriter().int(1000, i + 1).finish();
    const p = new Uint8Array(payload.length + extra.length);
    p.set(payload);
    p.set(extra, payload.length);
    const hash = createHash('sha256').update(p).digest('hex');
    files.push({ name: `hostile/copy-${i}-${hash}.dalf`, data: new ProtoWriter().bytes(3, p).string(4, hash).finish() });
  }
  for (const a of real.archives) if (a !== main) files.push({ name: a.path, data: a.bytes });
  if (opts.badLast) files.push({ name: 'hostile/bad.dalf', data: new ProtoWriter().bytes(3, payload).string(4, '0'.repeat(64)).finish() });
  const manifest = renderManifest([
    ['Manifest-Version', '1.0'],
    ['Main-Dalf', files[0]?.name as string],
    ['Dalfs', files.map((f) => f.name).join(', ')],
    ['Format', 'daml-lf'],
    ['Encryption', 'non-encrypted'],
  ]);
  return writeZip([{ name: MANIFEST_PATH, data: new TextEncoder().encode(manifest) }, ...files]);
}
