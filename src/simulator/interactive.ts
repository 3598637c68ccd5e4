/**
 * Interactive submission: `prepare` interprets the commands without committing, returns the
 * protobuf PreparedTransaction and its V2 hash, and remembers the submission by hash; `execute`
 * recomputes the hash of what the client sends back (so a modified transaction is refused), checks
 * every external `actAs` party's Ed25519 signatures against its registered keys and threshold, and
 * then commits exactly the prepared transaction (its nodes; relative contract ids get their suffix),
 * after checking that its input contracts are still active (deduplication included).
 */
import { randomUUID } from 'node:crypto';
import type { SimContext } from './context.js';
import { microsToIso } from './clock.js';
import { signatureValid } from './crypto/keys.js';
import { interpretCommands } from './engine/submit.js';
import { buildPreparedTransaction, encodeAndHashPrepared, preparedHash } from './engine/prepared-transaction.js';
import { CantonError } from './errors.js';
import type { LedgerWriter, SubmitResult } from './ledger.js';
import { relativeContractId } from './ledger.js';
import { toSimCommands } from './submission-checks.js';
import type { ContractRow, TxNode } from './model.js';
import { loadProto } from './proto.js';
import type { JsCommandsInput } from './schemas.js';
import type { JsExecuteSubmissionInput, JsPrepareSubmissionInput } from './schemas-interactive.js';

/** What prepare remembers (by hash): the submission and the transaction exactly as prepared. */
interface StoredPrepared {
  commands: JsCommandsInput;
  /** Nodes with relative contract ids for the contracts the transaction creates. */
  nodes?: TxNode[];
  inputs?: string[];
  archived?: string[];
  synchronizerId?: string;
  effectiveAt?: string;
}

export interface PrepareResult {
  preparedTransaction: string;
  preparedTransactionHash: string;
}

/** How many recently prepared transactions keep their hash in memory (see `hashes`). */
const REMEMBERED_HASHES = 256;

export class InteractiveSubmission {
  /**
   * The V2 hash of each recently prepared transaction by its exact base64 bytes. Execute hashes what the client sends
   * back; when those bytes are exactly what prepare returned, the hash is the one prepare computed over the same bytes
   * (a hash is a function of the bytes), so it is not computed twice. Any other input, e.g. a modified transaction or
   * one prepared before a restart, is decoded and hashed in full.
   */
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
  ) {}

  async prepare(req: JsPrepareSubmissionInput, user: string): Promise<PrepareResult> {
    const sim = this.sim;
    if (req.hashingSchemeVersion === 'HASHING_SCHEME_VERSION_V3')
      throw new CantonError('INVALID_ARGUMENT', 'The simulator supports hashing scheme V2 only', {
        context: { field: 'hashingSchemeVersion' },
      });
    const commands: JsCommandsInput = {
      commands: req.commands,
      commandId: req.commandId,
      actAs: req.actAs,
      userId: req.userId && req.userId.length > 0 ? req.userId : user,
      ...(req.readAs ? { readAs: req.readAs } : {}),
      ...(req.synchronizerId ? { synchronizerId: req.synchronizerId } : {}),
    };
    this.writer.validateSubmission(commands);
    const disclosed = this.writer.resolveDisclosed(req.disclosedContracts);
    const uuid = randomUUID();
    const now = sim.clock.nowMicros();
    const effectiveAt = microsToIso(now);
    const result = interpretCommands(toSimCommands(req.commands), req.actAs, req.readAs ?? [], {
      store: sim.store,
      registry: sim.registry,
      effectiveAt,
      idSeed: `${sim.participantId}:prepare:${uuid}`,
      defaultSynchronizerId: sim.synchronizers[0].id,
      ...(req.synchronizerId ? { requestedSynchronizerId: req.synchronizerId } : {}),
      disclosed,
    });
    // Contracts created by a prepared transaction have relative ids (discriminator only); they get
    // their suffix when the transaction is executed, as on Canton.
    let text = JSON.stringify(result.nodes);
    for (const n of result.nodes)
      if (n.kind === 'create') text = text.replaceAll(JSON.stringify(n.contractId), JSON.stringify(relativeContractId(n.contractId)));
    const nodes = JSON.parse(text) as TxNode[];
    const inputContracts = result.inputs.map((id) => sim.store.contract(id)).filter((c): c is ContractRow => c !== undefined);
    const pt = buildPreparedTransaction(
      nodes,
      {
        actAs: [...new Set(req.actAs)].sort(),
        commandId: req.commandId,
        synchronizerId: result.synchronizerId,
        transactionUuid: uuid,
        preparationTimeMicros: now,
        inputContracts,
      },
      sim.registry,
    );
    const { base64: preparedTransaction, hash: preparedTransactionHash } = await encodeAndHashPrepared(pt);
    const stored: StoredPrepared = {
      commands: { ...commands, synchronizerId: result.synchronizerId },
      nodes,
      inputs: result.inputs,
      archived: result.archived,
      synchronizerId: result.synchronizerId,
      effectiveAt,
    };
    sim.store.putPrepared(preparedTransactionHash, stored, now);
    this.hashes.set(preparedTransaction, preparedTransactionHash);
    if (this.hashes.size > REMEMBERED_HASHES) this.hashes.delete(this.hashes.keys().next().value as string);
    return { preparedTransaction, preparedTransactionHash };
  }

  async execute(req: JsExecuteSubmissionInput, user: string): Promise<SubmitResult> {
    const sim = this.sim;
    if (req.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_V2')
      throw new CantonError('INVALID_ARGUMENT', `Unsupported hashing scheme ${req.hashingSchemeVersion}: use HASHING_SCHEME_VERSION_V2`, {
        context: { field: 'hashingSchemeVersion' },
      });
    let hash: string;
    const { decodePreparedTransaction } = await loadProto();
    try {
      // decoded once (as the hashing library decodes base64), then hashed
      hash = this.hashes.get(req.preparedTransaction) ?? (await preparedHash(decodePreparedTransaction(req.preparedTransaction)));
    } catch (e) {
      throw new CantonError('INVALID_ARGUMENT', `The prepared transaction cannot be decoded: ${(e as Error).message}`, {
        context: { field: 'preparedTransaction' },
      });
    }
    // written by prepare above
    const stored = sim.store.prepared(hash) as StoredPrepared | undefined;
    if (!stored)
      throw new CantonError(
        'INVALID_ARGUMENT',
        'The prepared transaction is unknown to this participant, was already executed, or was modified after prepare',
        {
          context: { field: 'preparedTransaction', preparedTransactionHash: hash },
        },
      );
    const message = Buffer.from(hash, 'base64');
    for (const party of stored.commands.actAs) {
      const registered = sim.store.partyKeys(party);
      if (!registered) continue; // local party: the participant authorizes it
      const given = req.partySignatures.signatures.filter((s) => s.party === party).flatMap((s) => s.signatures);
      const validBy = new Set<string>();
      for (const k of registered.keys) {
        const key = { raw: Buffer.from(k.raw, 'base64'), fingerprint: k.fingerprint };
        if (given.some((s) => signatureValid(s, key, message))) validBy.add(k.fingerprint);
      }
      if (validBy.size < registered.threshold)
        throw new CantonError(
          'INVALID_ARGUMENT',
          `Missing or invalid signatures of party ${party}: ${validBy.size} valid, ${registered.threshold} required`,
          {
            context: { party, field: 'partySignatures', threshold: String(registered.threshold) },
          },
        );
    }
    const userId = req.userId && req.userId.length > 0 ? req.userId : (stored.commands.userId ?? user);
    const commands: JsCommandsInput = {
      ...stored.commands,
      userId,
      submissionId: req.submissionId,
      ...(req.deduplicationPeriod ? { deduplicationPeriod: req.deduplicationPeriod } : {}),
    };
    if (!stored.nodes || !stored.inputs || !stored.archived || !stored.synchronizerId || !stored.effectiveAt)
      throw new CantonError('INVALID_ARGUMENT', 'The prepared transaction was prepared by an older simulator version; prepare it again', {
        context: { field: 'preparedTransaction', preparedTransactionHash: hash },
      });
    // commit exactly what was prepared and signed — the commands are not interpreted again
    const result = await this.writer.executePrepared(commands, user, {
      nodes: stored.nodes,
      inputs: stored.inputs,
      archived: stored.archived,
      synchronizerId: stored.synchronizerId,
      effectiveAt: stored.effectiveAt,
    });
    // The prepared submission is kept: executing it again is a DUPLICATE_COMMAND, as on Canton.
    return result;
  }
}
