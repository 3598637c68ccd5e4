/**
 * Append-only, hash-chained audit log of signing decisions in SQLite (chain: audit-chain.ts). With the console's
 * audit key (audit-key.ts, secret in the OS keychain) every entry's chain hash and the head row carry an HMAC, so
 * a process that can write console.sqlite but not read the keychain cannot add, edit, re-chain or drop entries
 * unnoticed; exports end with a head signed by the audit key's Ed25519 key. The head row (seq, hash of the last
 * entry, MAC) is written in the same transaction as the entry. What this proves and what it cannot: ARCHITECTURE.md.
 */
import type { AppDb } from '../app-db.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { AuditKey } from './audit-key.js';
import { AuditEntrySchema, AuditInputSchema, entryHash, GENESIS_HASH, type AuditEntry, type AuditInput } from './audit-chain.js';
import { canonicalJson } from './canonical-json.js';
import { signedHeadMessage, verifyRecords, type ChainVerification, type SignedHead } from './audit-verify.js';

export { GENESIS_HASH, AuditDecisionSchema, AuditInputSchema, AuditEntrySchema, entryHash } from './audit-chain.js';
export type { AuditInput, AuditEntry } from './audit-chain.js';
export { verifyAuditExport } from './audit-verify.js';
export type { ChainVerification, ChainProblem, ChainProblemKind, AuditAuthentication, ExportVerification } from './audit-verify.js';

export interface AuditRecord {
  entry: AuditEntry;
  prevHash: string;
  hash: string;
}

interface Row {
  seq: number;
  entry_json: string;
  prev_hash: string;
  hash: string;
  mac: string | null;
}

export class AuditLog {
  private readonly now: () => Date;
  private readonly key: AuditKey | null;

  constructor(
    private readonly db: AppDb,
    opts: { now?: () => Date; key?: AuditKey | null } = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.key = opts.key ?? null;
  }

  /** The next entry's number (where a new audit key starts authenticating). */
  static nextSeq(db: AppDb): number {
    const head = db.prepare('SELECT seq FROM signing_audit_head WHERE id = 1').get() as { seq: number } | undefined;
    return (head?.seq ?? 0) + 1;
  }

  /** The newest entry's number (0 when empty): the chain head, written in the same transaction as each entry. */
  headSeq(): number {
    return AuditLog.nextSeq(this.db) - 1;
  }

  /** Whether entries are authenticated with the console's audit key, and the key's public half. */
  get authenticated(): { keyed: boolean; publicKeyHex: string | null } {
    return { keyed: this.key !== null, publicKeyHex: this.key?.publicKeyHex ?? null };
  }

  /** Appends one decision durably (same SQLite transaction as the chain head). */
  append(input: AuditInput): AuditRecord {
    const data = AuditInputSchema.parse(input);
    return this.db
      .transaction((): AuditRecord => {
        const head = this.db.prepare('SELECT seq, hash FROM signing_audit_head WHERE id = 1').get() as
          { seq: number; hash: string } | undefined;
        const seq = (head?.seq ?? 0) + 1;
        const prevHash = head?.hash ?? GENESIS_HASH;
        const entry: AuditEntry = { seq, at: this.now().toISOString(), ...data };
        const hash = entryHash(prevHash, entry);
        this.db
          .prepare('INSERT INTO signing_audit (seq, entry_json, prev_hash, hash, mac) VALUES (?, ?, ?, ?, ?)')
          .run(seq, canonicalJson(entry), prevHash, hash, this.key?.entryMac(hash) ?? null);
        this.db
          .prepare(
            'INSERT INTO signing_audit_head (id, seq, hash, mac) VALUES (1, ?, ?, ?) ' +
              'ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, mac = excluded.mac',
          )
          .run(seq, hash, this.key?.headMac(seq, hash) ?? null);
        return { entry, prevHash, hash };
      })
      .immediate();
  }

  /** Newest first. */
  list(opts: { limit?: number; beforeSeq?: number } = {}): AuditRecord[] {
    const limit = Math.min(Math.max(opts.limit ?? 100, 1), 10_000);
    const rows = this.db
      .prepare('SELECT * FROM signing_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as Row[];
    return rows.map((r) => {
      const parsed = AuditEntrySchema.safeParse(safeJson(r.entry_json));
      if (!parsed.success) throw new ConsoleError('INTERNAL', `Audit entry ${r.seq} is unreadable; run verifyChain()`);
      return { entry: parsed.data, prevHash: r.prev_hash, hash: r.hash };
    });
  }

  /** Checks every link and (with the audit key) every MAC; reports each edited, forged, deleted, reordered entry and a removed tail. */
  verifyChain(): ChainVerification {
    const rows = this.db.prepare('SELECT * FROM signing_audit ORDER BY seq').all() as Row[];
    const head = this.db.prepare('SELECT seq, hash, mac FROM signing_audit_head WHERE id = 1').get() as
      { seq: number; hash: string; mac: string | null } | undefined;
    return verifyRecords(
      rows.map((r) => ({ seq: r.seq, entryJson: r.entry_json, prevHash: r.prev_hash, hash: r.hash, mac: r.mac })),
      head ?? null,
      this.key,
    );
  }

  /**
   * The whole log as NDJSON: one `{...entry, chainPrevHash, chainHash}` object per line, oldest first; with the audit
   * key, a last line `{"auditHead": …}` with the head signed by the audit key (verifyAuditExport checks it).
   */
  async export(): Promise<string> {
    const rows = this.db.prepare('SELECT * FROM signing_audit ORDER BY seq').all() as Row[];
    const lines = rows.map((r) => JSON.stringify({ ...(safeJson(r.entry_json) as object), chainPrevHash: r.prev_hash, chainHash: r.hash }));
    if (this.key) {
      const last = rows[rows.length - 1];
      const head = {
        format: 'canton-console/audit-head' as const,
        version: 1 as const,
        seq: last?.seq ?? 0,
        hash: last?.hash ?? GENESIS_HASH,
        exportedAt: this.now().toISOString(),
      };
      const signed: SignedHead = { ...head, publicKeyHex: this.key.publicKeyHex, signature: await this.key.sign(signedHeadMessage(head)) };
      lines.push(JSON.stringify({ auditHead: signed }));
    }
    return lines.map((l) => l + '\n').join('');
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
