/**
 * Issue #13 item 7: anyone who could write console.sqlite could edit, drop or re-chain audit entries and recompute
 * the SHA-256 chain, and Verify said OK. The chain is now authenticated with a secret held in the OS keychain (the
 * real Secret Service here): every rewrite that recomputes the hashes is reported, and an export's signed head pins
 * the log so that a later truncation is found too. What it cannot see (an older copy of the whole database, head row
 * included) is asserted as well, so the documented limit stays true.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Entry } from '@napi-rs/keyring';
import Database from 'better-sqlite3';
import { openAppDb, type AppDb } from '../../src/services/app-db.js';
import { KeychainSecretStore } from '../../src/services/secret-store.js';
import { AuditKey, auditKeyAccount } from '../../src/services/signing/audit-key.js';
import { AuditLog, entryHash, verifyAuditExport, type AuditInput } from '../../src/services/signing/audit-log.js';
import { signedHeadMessage, type SignedHead } from '../../src/services/signing/audit-verify.js';
import { canonicalJson } from '../../src/services/signing/canonical-json.js';
import { must } from '../support/must.js';
import { objectContaining, stringMatching } from '../support/matchers.js';

const SERVICE = `canton-console-test-audit-${process.pid}-${Date.now()}`;
const accounts = new Set<string>();
let dir: string;
let db: AppDb;
let log: AuditLog;
let key: AuditKey;

async function openLog(logId: string): Promise<void> {
  const account = auditKeyAccount(logId);
  accounts.add(account);
  key = await AuditKey.loadOrCreate(new KeychainSecretStore(SERVICE), account, AuditLog.nextSeq(db));
  log = new AuditLog(db, { key });
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'audit-rewrite-'));
  db = openAppDb(dir);
  await openLog(path.basename(dir));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const a of accounts) new Entry(SERVICE, a).deletePassword();
});

const input = (i: number, decision: 'signed' | 'refused' = 'signed'): AuditInput => ({
  decision,
  subject: 'prepared-transaction',
  channel: 'online',
  reason: decision === 'refused' ? 'POLICY_AMOUNT' : null,
  message: decision === 'refused' ? 'Amount 5000 exceeds this key’s limit of 1000 per transaction' : null,
  fingerprint: '1220' + 'ab'.repeat(32),
  party: 'alice::1220' + 'ab'.repeat(32),
  hash: Buffer.alloc(32, i).toString('base64'),
  summary: `Transfer ${i}.0 Amulet to bob`,
});
function fill(n: number): void {
  for (let i = 1; i <= n; i++) log.append(input(i, i % 2 ? 'signed' : 'refused'));
}
const kinds = () => log.verifyChain().problems.map((p) => [p.kind, p.seq] as const);

interface Row {
  seq: number;
  entry_json: string;
  prev_hash: string;
  hash: string;
  mac: string | null;
}
/**
 * What an attacker with write access to console.sqlite (and the code of this console) can do: rewrite entries from
 * `fromSeq` on with `edit`, renumber them, and recompute every SHA-256 link and the head row, exactly as the console would.
 */
function rechain(edit: (rows: Row[]) => Row[]): void {
  const rows = db.prepare('SELECT seq, entry_json, prev_hash, hash, mac FROM signing_audit ORDER BY seq').all() as Row[];
  const edited = edit(rows);
  db.prepare('DELETE FROM signing_audit').run();
  let prev = '00'.repeat(32);
  edited.forEach((r, i) => {
    const entry = { ...(JSON.parse(r.entry_json) as Record<string, unknown>), seq: i + 1 };
    const json = canonicalJson(entry);
    const hash = entryHash(prev, entry as Parameters<typeof entryHash>[1]);
    // the attacker keeps every MAC column as it was (it cannot compute new ones)
    db.prepare('INSERT INTO signing_audit (seq, entry_json, prev_hash, hash, mac) VALUES (?, ?, ?, ?, ?)').run(
      i + 1,
      json,
      prev,
      hash,
      r.mac,
    );
    prev = hash;
  });
  db.prepare('UPDATE signing_audit_head SET seq = ?, hash = ?').run(edited.length, prev);
}

describe('audit log authenticated with a keychain secret', () => {
  it('keeps the secret in the OS keychain, not in console.sqlite, and verifies a genuine log', async () => {
    fill(5);
    const stored = new Entry(SERVICE, auditKeyAccount(path.basename(dir))).getPassword();
    expect(stored).toMatch(/^audit-key:v1:[A-Za-z0-9+/]+=*:1$/);
    const secret = must(must(stored, 'stored').split(':')[2], "stored.split(':')[2]");
    const raw = new Database(path.join(dir, 'console.sqlite'), { readonly: true });
    const everything = JSON.stringify([
      raw.prepare('SELECT * FROM signing_audit').all(),
      raw.prepare('SELECT * FROM signing_audit_head').all(),
      raw.prepare('SELECT * FROM settings').all(),
    ]);
    raw.close();
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(Buffer.from(secret, 'base64').toString('hex'));
    const v = log.verifyChain();
    expect(v).toMatchObject({ ok: true, entries: 5, problems: [] });
    expect(v.authentication).toMatchObject({ keyed: true, keyedFrom: 1, publicKeyHex: key.publicKeyHex, note: null });
    // the same key is found again on the next start
    const again = await AuditKey.loadOrCreate(new KeychainSecretStore(SERVICE), auditKeyAccount(path.basename(dir)), 99);
    expect(again.publicKeyHex).toBe(key.publicKeyHex);
    expect(new AuditLog(db, { key: again }).verifyChain().ok).toBe(true);
  });

  it('detects an edit whose hashes were all recomputed (re-chained), which the SHA-256 chain alone accepted', () => {
    fill(5);
    rechain((rows) => rows.map((r) => (r.seq === 2 ? { ...r, entry_json: r.entry_json.replace('"refused"', '"signed"') } : r)));
    const k = kinds();
    expect(k).toContainEqual(['forged', 2]);
    // every re-chained entry from the edit on, and the head, are reported
    expect(k.filter(([kind]) => kind === 'forged').map(([, seq]) => seq)).toEqual([2, 3, 4, 5, 5]);
    expect(must(log.verifyChain().problems[0], 'log.verifyChain().problems[0]').message).toMatch(/not written by this console/);
  });

  it('detects an entry dropped from the middle and the rest renumbered and re-chained', () => {
    fill(6);
    rechain((rows) => rows.filter((r) => r.seq !== 3));
    expect(kinds().some(([kind, seq]) => kind === 'forged' && seq === 3)).toBe(true);
    expect(log.verifyChain().entries).toBe(5);
  });

  it('detects an entry appended without the console (hash and head recomputed)', () => {
    fill(3);
    rechain((rows) => [
      ...rows,
      { ...must(rows[0], 'rows[0]'), entry_json: must(rows[0], 'rows[0]').entry_json.replace('Transfer 1.0', 'Transfer 100.0') },
    ]);
    expect(kinds()).toEqual([
      ['forged', 4],
      ['forged', 4],
    ]);
  });

  it('detects the newest entries dropped with a recomputed head row', () => {
    fill(6);
    db.prepare('DELETE FROM signing_audit WHERE seq > 4').run();
    const last = db.prepare('SELECT hash FROM signing_audit WHERE seq = 4').get() as { hash: string };
    db.prepare('UPDATE signing_audit_head SET seq = 4, hash = ?').run(last.hash);
    expect(kinds()).toEqual([['forged', 4]]);
    expect(must(log.verifyChain().problems[0], 'log.verifyChain().problems[0]').message).toMatch(
      /chain head was not written by this console/,
    );
  });

  it('detects MACs copied between entries or removed', () => {
    fill(4);
    const mac1 = (db.prepare('SELECT mac FROM signing_audit WHERE seq = 1').get() as { mac: string }).mac;
    db.prepare('UPDATE signing_audit SET mac = ? WHERE seq = 3').run(mac1);
    db.prepare('UPDATE signing_audit SET mac = NULL WHERE seq = 4').run();
    expect(kinds()).toEqual([
      ['forged', 3],
      ['unauthenticated', 4],
    ]);
  });

  it('reports entries the console appended while the keychain was unreachable as unauthenticated, not as forged', () => {
    fill(2);
    // a start without a reachable keychain: the console chains without the key (console-app.ts loadAuditKey)
    new AuditLog(db).append(input(3));
    expect(kinds()).toEqual([
      ['unauthenticated', 3],
      ['unauthenticated', 3],
    ]);
    expect(must(log.verifyChain().problems[0], 'log.verifyChain().problems[0]').message).toMatch(
      /no authentication code.*keychain was unreachable.*cannot be told/,
    );
    // the next start with the keychain authenticates what it appends; entry 3 stays unauthenticated
    log.append(input(4));
    expect(kinds()).toEqual([['unauthenticated', 3]]);
    expect(log.verifyChain().ok).toBe(false);
  });

  it('treats entries written before the key existed as chained only, and says so', async () => {
    const unkeyed = new AuditLog(db);
    for (let i = 1; i <= 3; i++) unkeyed.append(input(i));
    await openLog(`${path.basename(dir)}-upgraded`);
    expect(key.keyedFrom).toBe(4);
    fill(2);
    const v = log.verifyChain();
    expect(v.ok).toBe(true);
    expect(v.authentication.note).toMatch(/Entries 1–3 predate the audit key/);
    // cutting the log below where it stood when the key was created is found from the key alone
    db.prepare('DELETE FROM signing_audit WHERE seq > 2').run();
    const h2 = db.prepare('SELECT hash FROM signing_audit WHERE seq = 2').get() as { hash: string };
    db.prepare('UPDATE signing_audit_head SET seq = 2, hash = ?, mac = NULL').run(h2.hash);
    expect(kinds()).toContainEqual(['truncated', 3]);
  });

  it('signs the head of every export; an auditor with the public key detects edits, re-signing and truncation', async () => {
    fill(4);
    const nd = await log.export();
    const lines = nd.trim().split('\n');
    expect(lines).toHaveLength(5);
    const ok = await verifyAuditExport(nd, { publicKeyHex: key.publicKeyHex });
    expect(ok).toMatchObject({ ok: true, entries: 4, signedHead: { seq: 4, signatureValid: true, publicKeyHex: key.publicKeyHex } });
    // an edit that recomputes the whole chain no longer matches the signed head
    const entries = lines.slice(0, 4).map((l) => JSON.parse(l) as Record<string, unknown>);
    let prev = '00'.repeat(32);
    const rewritten = entries.map((e) => {
      const { chainPrevHash: _p, chainHash: _h, ...entry } = e;
      if (entry.seq === 2) entry.decision = 'signed';
      const hash = entryHash(prev, entry as Parameters<typeof entryHash>[1]);
      const line = JSON.stringify({ ...entry, chainPrevHash: prev, chainHash: hash });
      prev = hash;
      return line;
    });
    const forged = await verifyAuditExport([...rewritten, lines[4]].join('\n'), { publicKeyHex: key.publicKeyHex });
    expect(forged.ok).toBe(false);
    // … and a head re-signed with another key is not the console's
    const other = await AuditKey.fromSecret(new Uint8Array(32).fill(9));
    const head = (JSON.parse(must(lines[4], 'lines[4]')) as { auditHead: SignedHead }).auditHead;
    const reHead: SignedHead = { ...head, hash: prev, publicKeyHex: other.publicKeyHex };
    reHead.signature = await other.sign(signedHeadMessage(reHead));
    const resigned = await verifyAuditExport([...rewritten, JSON.stringify({ auditHead: reHead })].join('\n'), {
      publicKeyHex: key.publicKeyHex,
    });
    expect(resigned.problems).toContainEqual(objectContaining({ kind: 'signature', message: stringMatching(/another key/) }));
    // a pinned head from this export finds a later log that lost its newest entries
    const pinned = { seq: must(ok.signedHead, 'ok.signedHead').seq, hash: must(ok.signedHead, 'ok.signedHead').hash };
    const shorter = await verifyAuditExport(lines.slice(0, 3).join('\n'), { head: pinned });
    expect(shorter.problems).toContainEqual(expect.objectContaining({ kind: 'truncated' }));
  });

  it('cannot tell an older copy of the whole database (head row included) from the real one — the documented limit', () => {
    fill(3);
    db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(path.join(dir, 'console.sqlite'), path.join(dir, 'older.sqlite'));
    fill(2);
    db.close();
    copyFileSync(path.join(dir, 'older.sqlite'), path.join(dir, 'console.sqlite'));
    rmSync(path.join(dir, 'console.sqlite-wal'), { force: true });
    rmSync(path.join(dir, 'console.sqlite-shm'), { force: true });
    db = openAppDb(dir);
    log = new AuditLog(db, { key });
    expect(log.verifyChain()).toMatchObject({ ok: true, entries: 3 });
  });
});
