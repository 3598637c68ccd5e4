/**
 * Fault injection (tests and demos): the simulator plays a lying participant and tampers with its own
 * `interactive-submission/prepare` answers, so a client's verification can be exercised without a proxy.
 *
 * The configured kinds are applied round-robin, one kind per prepare answer. The simulator itself stays honest
 * underneath: it remembers (and will only ever execute) the transaction it really prepared, under its real hash,
 * so a client that signed a tampered answer would still not get anything committed it did not see — the point of
 * the exercise is that the client refuses before signing. A kind that does not apply to a transaction (no input
 * contract to drop, no numeric to alter, …) leaves that answer untouched and is recorded as `applied: false`.
 */
import type { DamlTransaction_Node, PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import { z } from 'zod';
import type { SimContext } from './context.js';
import { encodePrepared, preparedHash } from './engine/prepared-transaction.js';
import { loadProto } from './proto.js';

export const TAMPER_KINDS = [
  /** The hash is replaced by other bytes; the transaction is the honest one. */
  'hash',
  /** The first Numeric of a create argument / choice argument is altered (honest hash kept). */
  'amount',
  /** The last party value of the first node that carries one (receiver, new owner, …) is replaced. */
  'receiver',
  /** A copy of a create node is added as an extra root. */
  'extra-node',
  /** The last input contract is dropped from the metadata. */
  'input-dropped',
  /** The preparation (ledger) time in the metadata is moved by an hour. */
  'ledger-time',
  /** Another party is added to the submitters (actAs). */
  'submitter',
  /** The submitters are replaced by another party and the hash is recomputed: a consistent answer for somebody else. */
  'submitter-rehashed',
  /** The command id in the metadata is altered. */
  'command-id',
  /** The transaction of the previous prepare is sent with this prepare's hash. */
  'other-transaction',
  /** The transaction bytes are cut in half. */
  'truncated',
  /** The answer claims hashing scheme V3. */
  'scheme-v3',
] as const;

export type TamperKind = (typeof TAMPER_KINDS)[number];
export const TamperKindSchema = z.enum(TAMPER_KINDS);

export const FaultInjectionConfigSchema = z
  .object({
    prepare: z.union([z.literal('off'), z.array(TamperKindSchema).min(1, 'give at least one tamper kind, or "off"').max(64)]),
  })
  .strict();
export type FaultInjectionConfig = z.infer<typeof FaultInjectionConfigSchema>;

/** Parses `kind[,kind…]` (CLI flag) or `off`; throws an Error naming the bad kind. */
export function parseTamperKinds(text: string): TamperKind[] | 'off' {
  if (text.trim() === 'off') return 'off';
  const kinds = text.split(',').map((k) => k.trim());
  const out: TamperKind[] = [];
  for (const k of kinds) {
    const parsed = TamperKindSchema.safeParse(k);
    if (!parsed.success) throw new Error(`unknown tamper kind '${k}' (known: ${TAMPER_KINDS.join(', ')}, or off)`);
    out.push(parsed.data);
  }
  return out;
}

export interface PrepareAnswer {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' | 'HASHING_SCHEME_VERSION_V3';
}

export interface Injection {
  seq: number;
  kind: TamperKind;
  applied: boolean;
  /** The hash the simulator really prepared (and will execute). */
  honestHash: string;
  detail: string;
}

const MAX_LOG = 200;

export class FaultInjector {
  private config: FaultInjectionConfig = { prepare: 'off' };
  private next = 0;
  private seq = 0;
  private previous: PrepareAnswer | null = null;
  private readonly log: Injection[] = [];

  constructor(private readonly otherParty: string) {}

  configure(config: FaultInjectionConfig): void {
    this.config = config;
    this.next = 0;
  }

  status(): { prepare: FaultInjectionConfig['prepare']; injections: Injection[] } {
    return { prepare: this.config.prepare, injections: [...this.log] };
  }

  /** The answer to send for an honest prepare answer (the honest one when fault injection is off). */
  async onPrepare(honest: PrepareAnswer): Promise<PrepareAnswer> {
    const kinds = this.config.prepare;
    const previous = this.previous;
    this.previous = honest;
    if (kinds === 'off') return honest;
    const kind = kinds[this.next % kinds.length] as TamperKind;
    this.next++;
    const r = await tamper(kind, honest, previous, this.otherParty);
    this.log.push({
      seq: ++this.seq,
      kind,
      applied: r !== null,
      honestHash: honest.preparedTransactionHash,
      detail: r?.detail ?? 'not applicable to this transaction',
    });
    if (this.log.length > MAX_LOG) this.log.shift();
    return r?.answer ?? honest;
  }
}

const injectors = new WeakMap<SimContext, FaultInjector>();

/** The simulator's fault injector (created off on first use). */
export function faultInjectorOf(sim: SimContext): FaultInjector {
  let f = injectors.get(sim);
  if (!f) {
    f = new FaultInjector(`fault-injected-party::${sim.namespace}`);
    injectors.set(sim, f);
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// The tampering itself

const b64 = (u: Uint8Array): string => Buffer.from(u).toString('base64');

interface Tampered {
  answer: PrepareAnswer;
  detail: string;
}

function v1Nodes(tx: PreparedTransaction): Array<Extract<DamlTransaction_Node['versionedNode'], { oneofKind: 'v1' }>['v1']> {
  return (tx.transaction?.nodes ?? []).flatMap((n) => (n.versionedNode.oneofKind === 'v1' ? [n.versionedNode.v1] : []));
}

/** Values of every node's create argument or choice argument, in node order. */
function nodeValues(tx: PreparedTransaction): Value[] {
  const out: Value[] = [];
  for (const n of v1Nodes(tx)) {
    if (n.nodeType.oneofKind === 'create' && n.nodeType.create.argument) out.push(n.nodeType.create.argument);
    if (n.nodeType.oneofKind === 'exercise' && n.nodeType.exercise.chosenValue) out.push(n.nodeType.exercise.chosenValue);
  }
  return out;
}

/** Depth-first walk over a Daml value (records, variants, lists, optionals, maps). */
function* walk(v: Value): Generator<Value> {
  yield v;
  const s = v.sum;
  switch (s.oneofKind) {
    case 'record':
      for (const f of s.record.fields) if (f.value) yield* walk(f.value);
      break;
    case 'variant':
      if (s.variant.value) yield* walk(s.variant.value);
      break;
    case 'list':
      for (const e of s.list.elements) yield* walk(e);
      break;
    case 'optional':
      if (s.optional.value) yield* walk(s.optional.value);
      break;
    case 'textMap':
      for (const e of s.textMap.entries) if (e.value) yield* walk(e.value);
      break;
    case 'genMap':
      for (const e of s.genMap.entries) {
        if (e.key) yield* walk(e.key);
        if (e.value) yield* walk(e.value);
      }
      break;
    default:
      break;
  }
}

async function tamper(
  kind: TamperKind,
  honest: PrepareAnswer,
  previous: PrepareAnswer | null,
  otherParty: string,
): Promise<Tampered | null> {
  const { PreparedTransaction } = await loadProto();
  const decode = (): PreparedTransaction => PreparedTransaction.fromBinary(Buffer.from(honest.preparedTransaction, 'base64'));
  // The honest hash is kept: the participant wants the hash of what it will execute signed, while showing otherwise.
  const withTx = async (tx: PreparedTransaction, detail: string): Promise<Tampered> => ({
    answer: { ...honest, preparedTransaction: await encodePrepared(tx) },
    detail,
  });
  switch (kind) {
    case 'hash':
      return { answer: { ...honest, preparedTransactionHash: b64(Buffer.alloc(32, 0x5a)) }, detail: 'hash replaced' };
    case 'amount': {
      const tx = decode();
      for (const root of nodeValues(tx))
        for (const v of walk(root))
          if (v.sum.oneofKind === 'numeric') {
            const before = v.sum.numeric;
            // a leading 9 in the integer part: still a valid Numeric, clearly a different amount
            v.sum.numeric = before.startsWith('-') ? `-9${before.slice(1)}` : `9${before}`;
            return withTx(tx, `amount ${before} → ${v.sum.numeric}`);
          }
      return null;
    }
    case 'receiver': {
      const tx = decode();
      for (const root of nodeValues(tx)) {
        const parties = [...walk(root)].filter((v) => v.sum.oneofKind === 'party');
        const last = parties[parties.length - 1];
        if (last && last.sum.oneofKind === 'party') {
          const before = last.sum.party;
          last.sum.party = otherParty;
          return withTx(tx, `party ${before} → ${otherParty}`);
        }
      }
      return null;
    }
    case 'extra-node': {
      const tx = decode();
      const t = tx.transaction;
      const source = t?.nodes.find((n) => n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create');
      if (!t || !source) return null;
      // a deep copy of the node through the wire form
      const copy = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(tx)).transaction?.nodes[t.nodes.indexOf(source)];
      if (!copy) return null;
      copy.nodeId = String(t.nodes.length);
      t.nodes.push(copy);
      t.roots.push(copy.nodeId);
      return withTx(tx, `extra root create node ${copy.nodeId}`);
    }
    case 'input-dropped': {
      const tx = decode();
      const dropped = tx.metadata?.inputContracts.pop();
      if (!dropped) return null;
      const id = dropped.contract.oneofKind === 'v1' ? dropped.contract.v1.contractId : '?';
      return withTx(tx, `input contract ${id} dropped`);
    }
    case 'ledger-time': {
      const tx = decode();
      if (!tx.metadata) return null;
      tx.metadata.preparationTime -= 3_600_000_000n;
      return withTx(tx, 'preparation time moved back one hour');
    }
    case 'submitter': {
      const tx = decode();
      const info = tx.metadata?.submitterInfo;
      if (!info) return null;
      info.actAs = [...info.actAs, otherParty];
      return withTx(tx, `submitter ${otherParty} added`);
    }
    case 'submitter-rehashed': {
      const tx = decode();
      const info = tx.metadata?.submitterInfo;
      if (!info) return null;
      info.actAs = [otherParty];
      const encoded = await encodePrepared(tx);
      return {
        answer: { ...honest, preparedTransaction: encoded, preparedTransactionHash: await preparedHash(encoded) },
        detail: `submitters replaced by ${otherParty}, hash recomputed`,
      };
    }
    case 'command-id': {
      const tx = decode();
      const info = tx.metadata?.submitterInfo;
      if (!info) return null;
      info.commandId = `${info.commandId}-tampered`;
      return withTx(tx, 'command id altered');
    }
    case 'other-transaction':
      if (!previous || previous.preparedTransaction === honest.preparedTransaction) return null;
      return { answer: { ...honest, preparedTransaction: previous.preparedTransaction }, detail: 'transaction of the previous prepare' };
    case 'truncated': {
      const bytes = Buffer.from(honest.preparedTransaction, 'base64');
      return {
        answer: { ...honest, preparedTransaction: b64(bytes.subarray(0, Math.floor(bytes.length / 2))) },
        detail: 'transaction truncated',
      };
    }
    case 'scheme-v3':
      return { answer: { ...honest, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' }, detail: 'hashing scheme V3 claimed' };
  }
}
