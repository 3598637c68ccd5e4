/**
 * Verification of the audit chain, for the console's own database (with its audit key) and for an exported NDJSON log
 * (with the audit public key the auditor was given). See ARCHITECTURE.md (Signing → audit log) for what each proves.
 */
import * as ed from '@noble/ed25519';
import { z } from 'zod';
import { AuditKey } from './audit-key.js';
import { canonicalJson } from './canonical-json.js';
import { AuditEntrySchema, entryHash, GENESIS_HASH } from './audit-chain.js';
import { fromBase64, fromHex, utf8 } from './bytes.js';

export type ChainProblemKind =
  'edited' | 'rewritten' | 'deleted' | 'reordered' | 'truncated' | 'unreadable' | 'forged' | 'unauthenticated' | 'signature';
export interface ChainProblem {
  seq: number;
  kind: ChainProblemKind;
  message: string;
}
export interface AuditAuthentication {
  /** Entries from `keyedFrom` on carry MACs that were checked with the console's audit key (from the OS keychain). */
  keyed: boolean;
  keyedFrom: number | null;
  /** The Ed25519 public key that signs exported heads (hex), when the audit key is available. */
  publicKeyHex: string | null;
  /** What is not covered (older entries, no key), in words; null when everything is. */
  note: string | null;
}
export interface ChainVerification {
  ok: boolean;
  entries: number;
  headHash: string;
  problems: ChainProblem[];
  authentication: AuditAuthentication;
}

export interface ChainRow {
  seq: number;
  entryJson: string;
  prevHash: string;
  hash: string;
  mac: string | null;
}
export interface ChainHead {
  seq: number;
  hash: string;
  mac: string | null;
}

/** What an export's last line states: the head, signed with the console's audit key. */
export const SignedHeadSchema = z.object({
  format: z.literal('canton-console/audit-head'),
  version: z.literal(1),
  seq: z.number().int().nonnegative(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  exportedAt: z.string(),
  publicKeyHex: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string(),
});
export type SignedHead = z.infer<typeof SignedHeadSchema>;

export function signedHeadMessage(h: Omit<SignedHead, 'publicKeyHex' | 'signature'>): Uint8Array {
  return utf8(canonicalJson({ format: h.format, version: h.version, seq: h.seq, hash: h.hash, exportedAt: h.exportedAt }));
}

/**
 * An entry (or head) without an authentication code after the audit key existed: the console writes those when the OS
 * keychain was unreachable at its start (it then chains without the key), and anyone with write access to the
 * database can write them too — the two cannot be told apart, so it is a problem, but not called a forgery.
 */
function unauthenticated(seq: number, what: string): ChainProblem {
  return {
    seq,
    kind: 'unauthenticated',
    message:
      `${what} carries no authentication code: it was written without the audit key (by this console while the OS ` +
      'keychain was unreachable) or outside the console; which of the two cannot be told',
  };
}

/**
 * Checks every link of the chain; with `key`, also every entry's MAC from `key.keyedFrom` on and the head's MAC.
 * `headRequired`: the database always has a head row once it has entries; an export may come without one.
 */
export function verifyRecords(rows: ChainRow[], head: ChainHead | null, key: AuditKey | null, headRequired = true): ChainVerification {
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
    if (key && row.seq >= key.keyedFrom && row.mac === null) problems.push(unauthenticated(row.seq, `Entry ${row.seq}`));
    else if (key && row.seq >= key.keyedFrom && !AuditKey.macEquals(row.mac, key.entryMac(row.hash))) {
      problems.push({
        seq: row.seq,
        kind: 'forged',
        message:
          `Entry ${row.seq} was not written by this console: its authentication code does not verify ` +
          '(added, edited or re-chained without the audit key)',
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
    if (key && head.seq >= key.keyedFrom && head.mac === null) problems.push(unauthenticated(head.seq, 'The chain head'));
    else if (key && head.seq >= key.keyedFrom && !AuditKey.macEquals(head.mac, key.headMac(head.seq, head.hash))) {
      problems.push({
        seq: head.seq,
        kind: 'forged',
        message: 'The chain head was not written by this console (its authentication code does not verify): entries may have been removed',
      });
    }
  } else if (rows.length > 0 && headRequired) {
    problems.push({ seq: lastSeq, kind: 'truncated', message: 'The chain head record is missing' });
  }
  // the key remembers where the log stood when it was created: a log cut below that is cut
  if (key && lastSeq < key.keyedFrom - 1) {
    problems.push({
      seq: lastSeq + 1,
      kind: 'truncated',
      message: `The log had ${key.keyedFrom - 1} entries when its audit key was created but now ends at ${lastSeq}: entries were deleted`,
    });
  }
  return {
    ok: problems.length === 0,
    entries: rows.length,
    headHash: prevStoredHash,
    problems,
    authentication: authentication(key, lastSeq),
  };
}

function authentication(key: AuditKey | null, lastSeq: number): AuditAuthentication {
  if (!key) {
    return {
      keyed: false,
      keyedFrom: null,
      publicKeyHex: null,
      note:
        lastSeq === 0
          ? null
          : 'No audit key is available (the OS keychain could not be read): ' +
            'the chain shows edits that did not recompute the hashes, not rewrites.',
    };
  }
  const legacy = Math.min(key.keyedFrom - 1, lastSeq);
  return {
    keyed: true,
    keyedFrom: key.keyedFrom,
    publicKeyHex: key.publicKeyHex,
    note:
      legacy > 0
        ? `Entries 1–${legacy} predate the audit key: they are chained by SHA-256 only, ` +
          'so a rewrite of them that recomputes the hashes is not detected.'
        : null,
  };
}

export interface ExportVerification extends Omit<ChainVerification, 'authentication'> {
  /** The export's signed head, and whether its signature verifies with the expected (else its own) public key. */
  signedHead: (SignedHead & { signatureValid: boolean }) | null;
}

/**
 * Verifies an exported NDJSON log on its own (e.g. by an auditor). `publicKeyHex`: the console's audit public key,
 * obtained from the console (Audit view), not from the file; `head`: a head pinned from an earlier export.
 */
export async function verifyAuditExport(
  ndjson: string,
  opts: { head?: { seq: number; hash: string }; publicKeyHex?: string } = {},
): Promise<ExportVerification> {
  const lines = ndjson.split('\n').filter((l) => l.trim() !== '');
  let signed: SignedHead | null = null;
  const lastLine = lines.at(-1);
  const last = lastLine !== undefined ? (safeJson(lastLine) as { auditHead?: unknown } | null) : null;
  if (last && typeof last === 'object' && 'auditHead' in last) {
    lines.pop();
    const parsed = SignedHeadSchema.safeParse(last.auditHead);
    signed = parsed.success ? parsed.data : null;
    if (!parsed.success) signed = null;
  }
  const rows: ChainRow[] = lines.map((line, i) => {
    const obj = safeJson(line);
    if (!obj || typeof obj !== 'object') return { seq: i + 1, entryJson: '', prevHash: '', hash: '', mac: null };
    const { chainPrevHash, chainHash, ...entry } = obj as Record<string, unknown>;
    const seq = typeof entry.seq === 'number' ? entry.seq : i + 1;
    return { seq, entryJson: JSON.stringify(entry), prevHash: text(chainPrevHash), hash: text(chainHash), mac: null };
  });
  const pinned = opts.head ? { ...opts.head, mac: null } : signed ? { seq: signed.seq, hash: signed.hash, mac: null } : null;
  const { authentication: _none, ...v } = verifyRecords(rows, pinned, null, false);
  if (opts.head && signed && (signed.seq < opts.head.seq || (signed.seq === opts.head.seq && signed.hash !== opts.head.hash))) {
    v.problems.push({
      seq: signed.seq,
      kind: 'truncated',
      message: `The export ends at entry ${signed.seq}, before the pinned head ${opts.head.seq}`,
    });
  }
  let signedHead: ExportVerification['signedHead'] = null;
  if (signed) {
    const publicKeyHex = opts.publicKeyHex ?? signed.publicKeyHex;
    let valid: boolean;
    try {
      valid = await ed.verifyAsync(
        fromBase64(signed.signature, 'signature'),
        signedHeadMessage(signed),
        fromHex(publicKeyHex, 'public key'),
      );
    } catch {
      valid = false;
    }
    signedHead = { ...signed, signatureValid: valid };
    if (!valid) {
      v.problems.push({
        seq: signed.seq,
        kind: 'signature',
        message:
          opts.publicKeyHex && opts.publicKeyHex !== signed.publicKeyHex
            ? `The export's head is signed by another key (${signed.publicKeyHex.slice(0, 16)}…), not by the console's audit key`
            : 'The signature over the export’s head does not verify: the export was changed after it was written',
      });
    }
  } else if (opts.publicKeyHex) {
    v.problems.push({
      seq: v.entries,
      kind: 'signature',
      message: 'The export has no signed head: it cannot be tied to the console’s audit key',
    });
  }
  return { ...v, ok: v.problems.length === 0, signedHead };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A chain field as written, or empty when the line carries none (or not as text): it then fails the chain check. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
