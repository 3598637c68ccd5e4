/**
 * Real DAR files: every DAR in ../shared/reference/dars (the folder must exist and hold the reference DARs: the test
 * fails otherwise) must read with exactly the package ids their archives declare. (A scan of node_modules for
 * .dar/.dalf files was dropped: no installed package ships one, so it could not fail.)
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MANIFEST_PATH, ProtoReader, readDar, readZip } from '../../../src/daml-lf/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const referenceDars = path.resolve(repoRoot, '../shared/reference/dars');

/** The reference set: each must be there (a missing or unreadable file fails the test). */
const EXPECTED_DARS = [
  'splice-amulet-0.1.21.dar',
  'splice-amulet-0.1.22.dar',
  'splice-api-token-allocation-instruction-v1-1.0.0.dar',
  'splice-api-token-allocation-request-v1-1.0.0.dar',
  'splice-api-token-allocation-v1-1.0.0.dar',
  'splice-api-token-holding-v1-1.0.0.dar',
  'splice-api-token-metadata-v1-1.0.0.dar',
  'splice-api-token-transfer-instruction-v1-1.0.0.dar',
  'splice-test-token-v1-1.0.0.dar',
  'splice-util-0.1.7.dar',
  'splice-wallet-0.1.23.dar',
];

/**
 * Independent oracle for "the ids the archives declare": reads `Archive.hash` (field 4) from each DALF and checks it
 * against node:crypto's SHA-256 of `Archive.payload` (field 3).
 */
function declaredIds(darBytes: Uint8Array): string[] {
  const zip = readZip(darBytes);
  const text = new TextDecoder().decode(zip.entries.get(MANIFEST_PATH)?.read());
  const joined = text.replace(/\r?\n /g, '');
  const main = /^Main-Dalf: *(.+)$/m.exec(joined)?.[1]?.trim();
  const listed = (/^Dalfs: *(.+)$/m.exec(joined)?.[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const dalfs = [...new Set([main ?? '', ...listed].filter(Boolean))];
  const ids: string[] = [];
  for (const d of dalfs) {
    const bytes = zip.entries.get(d)?.read();
    if (bytes === undefined) throw new Error(`${d} missing`);
    const r = new ProtoReader(bytes, 'MALFORMED_ARCHIVE', 'Archive');
    let hash = '';
    let payload: Uint8Array = new Uint8Array(0);
    while (!r.done) {
      const t = r.tag();
      if (t.field === 3) payload = r.bytes();
      else if (t.field === 4) hash = r.string();
      else r.skip(t.wireType);
    }
    expect(createHash('sha256').update(payload).digest('hex')).toBe(hash);
    if (!ids.includes(hash)) ids.push(hash);
  }
  return ids;
}

describe('real DARs from ../shared/reference/dars', () => {
  it('reads every DAR there with exactly the package ids its archives declare', () => {
    expect(existsSync(referenceDars), `the reference DARs are missing: ${referenceDars}`).toBe(true);
    const present = readdirSync(referenceDars).filter((n) => n.endsWith('.dar'));
    expect(
      EXPECTED_DARS.filter((n) => !present.includes(n)),
      `reference DARs missing from ${referenceDars}`,
    ).toEqual([]);
    // any further DAR placed there is read too
    const dars = present.map((n) => path.join(referenceDars, n));
    console.log(`[daml-lf] ${dars.length} DAR(s) in ${referenceDars}`);
    for (const file of dars) {
      const bytes = new Uint8Array(readFileSync(file));
      const dar = readDar(bytes);
      expect(
        dar.packages.map((p) => p.packageId),
        file,
      ).toEqual(declaredIds(bytes));
      console.log(
        `[daml-lf] ${path.basename(file)}: main ${dar.main.name} ${dar.main.version} ${dar.main.packageId} (LF ${dar.main.lfVersion}), ` +
          `${dar.packages.length} packages, ` +
          `templates: ${dar.main.modules.flatMap((m) => m.templates.map((t) => t.qualifiedName)).join(', ') || '(none)'}`,
      );
    }
  });
});
