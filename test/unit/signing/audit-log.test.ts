/** The hash-chained audit log on a real SQLite file: every kind of tampering is detected and located. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { AuditLog, GENESIS_HASH, verifyAuditExport, type AuditInput } from '../../../src/services/signing/audit-log.js';
import { canonicalJson } from '../../../src/services/signing/canonical-json.js';
import { must } from '../../support/must.js';
import { objectContaining, stringMatching } from '../../support/matchers.js';

let dir: string;
let db: AppDb;
let log: AuditLog;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'audit-'));
  db = openAppDb(dir);
  log = new AuditLog(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const input = (i: number, decision: 'signed' | 'refused' = 'signed'): AuditInput => ({
  decision,
  subject: 'prepared-transaction',
  channel: 'online',
  reason: decision === 'refused' ? 'HASH_MISMATCH' : null,
  message: decision === 'refused' ? 'hash mismatch' : null,
  fingerprint: '1220' + 'ab'.repeat(32),
  party: 'alice::1220' + 'ab'.repeat(32),
  hash: Buffer.alloc(32, i).toString('base64'),
  summary: `Transfer ${i}.0 Amulet to bob`,
});
function fill(n: number): void {
  for (let i = 1; i <= n; i++) log.append(input(i, i % 2 ? 'signed' : 'refused'));
}
const kinds = () => log.verifyChain().problems.map((p) => [p.kind, p.seq]);

describe('AuditLog', () => {
  it('chains entries as SHA-256(prev ‖ canonical JSON) starting from the zero hash', () => {
    const r1 = log.append(input(1));
    const r2 = log.append(input(2, 'refused'));
    expect(r1.prevHash).toBe(GENESIS_HASH);
    const expected1 = Buffer.from(sha256(Buffer.concat([Buffer.alloc(32), Buffer.from(canonicalJson(r1.entry))]))).toString('hex');
    expect(r1.hash).toBe(expected1);
    expect(r2.prevHash).toBe(r1.hash);
    expect(r2.entry).toMatchObject({ seq: 2, decision: 'refused', reason: 'HASH_MISMATCH' });
    expect(log.verifyChain()).toMatchObject({ ok: true, entries: 2, headHash: r2.hash, problems: [] });
    // without the console's audit key the chain is not authenticated, and says so
    expect(log.verifyChain().authentication).toMatchObject({
      keyed: false,
      publicKeyHex: null,
      note: stringMatching(/No audit key/),
    });
    expect(log.list().map((r) => r.entry.seq)).toEqual([2, 1]);
    expect(log.list({ beforeSeq: 2 }).map((r) => r.entry.seq)).toEqual([1]);
  });

  it('detects an edited entry and says which', () => {
    fill(5);
    const row = db.prepare('SELECT entry_json FROM signing_audit WHERE seq = 3').get() as { entry_json: string };
    expect(row.entry_json).toContain('Transfer 3.0 Amulet');
    db.prepare('UPDATE signing_audit SET entry_json = ? WHERE seq = 3').run(row.entry_json.replace('3.0 Amulet', '0.3 Amulet'));
    const v = log.verifyChain();
    expect(v.ok).toBe(false);
    expect(v.problems).toEqual([objectContaining({ seq: 3, kind: 'edited', message: stringMatching(/Entry 3 was edited/) })]);
  });

  it('detects an edit whose hash was recomputed (the next entry no longer follows)', () => {
    fill(4);
    const row = db.prepare('SELECT * FROM signing_audit WHERE seq = 2').get() as { entry_json: string; prev_hash: string };
    const entry = JSON.parse(row.entry_json) as Record<string, unknown>;
    entry.summary = 'nothing to see';
    const newJson = canonicalJson(entry);
    const newHash = Buffer.from(sha256(Buffer.concat([Buffer.from(row.prev_hash, 'hex'), Buffer.from(newJson)]))).toString('hex');
    db.prepare('UPDATE signing_audit SET entry_json = ?, hash = ? WHERE seq = 2').run(newJson, newHash);
    expect(kinds()).toEqual([['rewritten', 3]]);
    expect(must(log.verifyChain().problems[0], 'log.verifyChain().problems[0]').message).toMatch(/entry 2 was rewritten/);
  });

  it('detects an added field as an edit', () => {
    fill(2);
    const row = db.prepare('SELECT entry_json FROM signing_audit WHERE seq = 1').get() as { entry_json: string };
    db.prepare('UPDATE signing_audit SET entry_json = ? WHERE seq = 1').run(row.entry_json.replace('{', '{"approvedBy":"x",'));
    expect(kinds()).toEqual([['unreadable', 1]]);
  });

  it('detects deleted entries in the middle and at the end', () => {
    fill(6);
    db.prepare('DELETE FROM signing_audit WHERE seq IN (3, 4)').run();
    const v = log.verifyChain();
    expect(v.problems[0]).toMatchObject({ seq: 3, kind: 'deleted', message: 'Audit entries 3–4 are missing (deleted)' });
    expect(v.problems).toHaveLength(1);
    db.prepare('DELETE FROM signing_audit WHERE seq = 6').run();
    expect(kinds()).toContainEqual(['truncated', 6]);
  });

  it('detects reordered entries', () => {
    fill(4);
    db.prepare('UPDATE signing_audit SET seq = -2 WHERE seq = 2').run();
    db.prepare('UPDATE signing_audit SET seq = 2 WHERE seq = 3').run();
    db.prepare('UPDATE signing_audit SET seq = 3 WHERE seq = -2').run();
    const k = kinds();
    expect(k).toContainEqual(['reordered', 2]);
    expect(k).toContainEqual(['reordered', 3]);
  });

  it('exports NDJSON that verifies on its own and reveals tampering', async () => {
    fill(3);
    const nd = await log.export();
    const lines = nd.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(must(lines[0], 'lines[0]'))).toMatchObject({ seq: 1, decision: 'signed', chainPrevHash: GENESIS_HASH });
    const head = log.verifyChain();
    expect((await verifyAuditExport(nd, { head: { seq: 3, hash: head.headHash } })).ok).toBe(true);
    expect((await verifyAuditExport(nd.replace('Transfer 2.0', 'Transfer 9.0'))).problems[0]).toMatchObject({ seq: 2, kind: 'edited' });
    expect((await verifyAuditExport(lines.slice(0, 2).join('\n'), { head: { seq: 3, hash: head.headHash } })).problems[0]).toMatchObject({
      kind: 'truncated',
    });
  });

  it('rejects an invalid entry instead of logging it', () => {
    expect(() => log.append({ ...input(1), decision: 'maybe' as 'signed' })).toThrow();
    expect(log.verifyChain().entries).toBe(0);
  });
});
