/**
 * Append-only, hash-chained audit log of signing decisions in SQLite.
 * hash(n) = SHA-256(bytes(hash(n-1)) ‖ canonical JSON of entry n), hash(0) = 32 zero bytes. A head row
 * (seq, hash of the last entry) is written in the same transaction, so a removed tail is detected too.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { z } from 'zod';
import type { AppDb } from '../app-db.js';
import { ConsoleError } from '../../ipc/errors.js';
import { canonicalJson } from './canonical-json.js';
import { fromHex, toHex, utf8 } from './bytes.js';

export const GENESIS_HASH = '00'.repeat(32);

/** signed / refused: signing decisions; unlocked / locked: a key's opt-in unlock window opened or closed by the user. */
export const AuditDecisionSchema = z.enum(['signed', 'refused', 'unlocked', 'locked']);
export const AuditInputSchema = z.object({
  decision: AuditDecisionSchema,
  /** What was (or would have been) signed. */
  subject: z.enum(['prepared-transaction', 'topology', 'other']),
  /** How the request arrived: directly in the console, or through an offline signing-request file. */
  channel: z.enum(['online', 'offline']),
  /** Refusal reason code (SigningRefusalReason) when refused, else null. */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  fingerprint: z.string().nullable(),
  party: z.string().nullable(),
  /** The hash that was (or would have been) signed, base64. */
  hash: z.string().nullable(),
  /** One-line human summary of what the signature authorises. */
  summary: z.string(),
});
export type AuditInput = z.infer<typeof AuditInputSchema>;
export const AuditEntrySchema = AuditInputSchema.extend({ seq: z.number().int().positive(), at: z.string() });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export interface AuditRecord {
  entry: AuditEntry;
  prevHash: string;
  hash: string;
}

export type ChainProblemKind = 'edited' | 'rewritten' | 'deleted' | 'reordered' | 'truncated' | 'unreadable';
export interface ChainProblem {
  seq: number;
  kind: ChainProblemKind;
  message: string;
}
export interface ChainVerification {
  ok: boolean;
  entries: number;
  headHash: string;
  problems: ChainProblem[];
}

interface Row {
  seq: number;
  entry_json: string;
  prev_hash: string;
  hash: string;
}

export function entryHash(prevHashHex: string, entry: AuditEntry): string {
  const body = utf8(canonicalJson(entry));
  const prev = fromHex(prevHashHex, 'previous hash');
  const buf = new Uint8Array(prev.length + body.length);
  buf.set(prev, 0);
  buf.set(body, prev.length);
  return toHex(sha256(buf));
}

export class AuditLog {
  constructor(
    private readonly db: AppDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

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
          .prepare('INSERT INTO signing_audit (seq, entry_json, prev_hash, hash) VALUES (?, ?, ?, ?)')
          .run(seq, canonicalJson(entry), prevHash, hash);
        this.db
          .prepare(
            'INSERT INTO signing_audit_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash',
          )
          .run(seq, hash);
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

  /** Checks every link; reports each edited, rewritten, deleted, reordered entry and a removed tail. */
  verifyChain(): ChainVerification {
    const rows = this.db.prepare('SELECT * FROM signing_audit ORDER BY seq').all() as Row[];
    const head = this.db.prepare('SELECT seq, hash FROM signing_audit_head WHERE id = 1').get() as
      { seq: number; hash: string } | undefined;
    return verifyRecords(
      rows.map((r) => ({ seq: r.seq, entryJson: r.entry_json, prevHash: r.prev_hash, hash: r.hash })),
      head ?? null,
    );
  }

  /** The whole log as NDJSON: one `{...entry, chainPrevHash, chainHash}` object per line, oldest first. */
  export(): string {
    const rows = this.db.prepare('SELECT * FROM signing_audit ORDER BY seq').all() as Row[];
    return rows
      .map((r) => JSON.stringify({ ...(safeJson(r.entry_json) as object), chainPrevHash: r.prev_hash, chainHash: r.hash }))
      .map((l) => l + '\n')
      .join('');
  }
}

/** Verifies an exported NDJSON log on its own (e.g. by an auditor); `expectedHead` pins the last hash if known. */
export function verifyAuditExport(ndjson: string, expectedHead?: { seq: number; hash: string }): ChainVerification {
  const records = ndjson
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      const obj = safeJson(line);
      if (!obj || typeof obj !== 'object') return { seq: i + 1, entryJson: '', prevHash: '', hash: '' };
      const { chainPrevHash, chainHash, ...entry } = obj as Record<string, unknown>;
      const seq = typeof entry.seq === 'number' ? entry.seq : i + 1;
      return { seq, entryJson: JSON.stringify(entry), prevHash: String(chainPrevHash ?? ''), hash: String(chainHash ?? '') };
    });
  return verifyRecords(records, expectedHead ?? null, false);
}

function verifyRecords(
  rows: Array<{ seq: number; entryJson: string; prevHash: string; hash: string }>,
  head: { seq: number; hash: string } | null,
  headRequired = true,
): ChainVerification {
  const problems: ChainProblem[] = [];
  let expectedSeq = 1;
  let prevStoredHash = GENESIS_HASH;
  for (const row of rows) {
    if (row.seq > expectedSeq) {
      const missing = row.seq - expectedSeq === 1 ? `entry ${expectedSeq} is` : `entries ${expectedSeq}–${row.seq - 1} are`;
      problems.push({ seq: expectedSeq, kind: 'deleted', message: `Audit ${missing} missing (deleted)` });
    } else if (row.seq < expectedSeq) {
      problems.push({ seq: row.seq, kind: 'reordered', message: `Entry ${row.seq} appears out of order` });
    }
    // Strict: an added field is an edit too.
    const parsed = AuditEntrySchema.strict().safeParse(safeJson(row.entryJson));
    if (!parsed.success) {
      problems.push({ seq: row.seq, kind: 'unreadable', message: `Entry ${row.seq} is not a valid audit entry (edited)` });
    } else if (parsed.data.seq !== row.seq) {
      problems.push({
        seq: row.seq,
        kind: 'reordered',
        message: `Entry stored at position ${row.seq} was written as entry ${parsed.data.seq} (rows reordered)`,
      });
    } else if (!/^[0-9a-f]{64}$/.test(row.prevHash) || entryHash(row.prevHash, parsed.data) !== row.hash) {
      problems.push({ seq: row.seq, kind: 'edited', message: `Entry ${row.seq} was edited: its content no longer matches its hash` });
    }
    if (row.seq === expectedSeq && row.prevHash !== prevStoredHash) {
      problems.push({
        seq: row.seq,
        kind: 'rewritten',
        message:
          row.seq === 1
            ? 'Entry 1 does not start the chain'
            : `Entry ${row.seq} does not follow entry ${row.seq - 1}: entry ${row.seq - 1} was rewritten or replaced`,
      });
    }
    prevStoredHash = row.hash;
    expectedSeq = Math.max(expectedSeq, row.seq + 1);
  }
  const lastSeq = expectedSeq - 1;
  if (head) {
    if (head.seq > lastSeq) {
      problems.push({
        seq: lastSeq + 1,
        kind: 'truncated',
        message: `The log should end at entry ${head.seq} but ends at ${lastSeq}: the latest entries were deleted`,
      });
    } else if (head.seq === lastSeq && head.hash !== prevStoredHash) {
      problems.push({ seq: lastSeq, kind: 'edited', message: `Entry ${lastSeq} does not match the recorded chain head` });
    } else if (head.seq < lastSeq) {
      problems.push({ seq: head.seq + 1, kind: 'edited', message: `Entries after ${head.seq} were added outside the audit log` });
    }
  } else if (rows.length > 0 && headRequired) {
    problems.push({ seq: lastSeq, kind: 'truncated', message: 'The chain head record is missing' });
  }
  return { ok: problems.length === 0, entries: rows.length, headHash: prevStoredHash, problems };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
