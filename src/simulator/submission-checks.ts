/**
 * What a command submission is checked against before and while it is interpreted: its fields, parties and
 * synchronizer, its disclosed contracts (authenticated against what this ledger created), its ledger time and its
 * command deduplication. Shared by submit, prepare and execute (`ledger.ts`, `interactive.ts`).
 */
import type { SimContext } from './context.js';
import { isoToMicros, javaInstantString, MAX_DAML_TIMESTAMP_MICROS, microsToIso } from './clock.js';
import { checkValueDepth } from './json-depth.js';
import { CantonError, contractNotFound, partyNotKnown } from './errors.js';
import { sha256Hex } from './ids.js';
import type { SimCommand } from './engine/interpreter.js';
import { createdEventBlob } from './projection-events.js';
import type { DisclosedContractInput, JsCommandsInput } from './schemas.js';

/** Canton's default ledger-time / record-time tolerance (60 s). */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS = 60n * 1_000_000n;

export function toSimCommands(cmds: JsCommandsInput['commands']): SimCommand[] {
  return cmds.map((c): SimCommand => {
    if ('CreateCommand' in c) return { type: 'create', ...c.CreateCommand };
    if ('ExerciseCommand' in c) return { type: 'exercise', ...c.ExerciseCommand };
    if ('ExerciseByKeyCommand' in c) return { type: 'exerciseByKey', ...c.ExerciseByKeyCommand };
    return { type: 'createAndExercise', ...c.CreateAndExerciseCommand };
  });
}

/** The Daml-LF values a command carries (arguments, choice argument, contract key). */
function commandValues(c: JsCommandsInput['commands'][number]): unknown[] {
  if ('CreateCommand' in c) return [c.CreateCommand.createArguments];
  if ('ExerciseCommand' in c) return [c.ExerciseCommand.choiceArgument];
  if ('ExerciseByKeyCommand' in c) return [c.ExerciseByKeyCommand.contractKey, c.ExerciseByKeyCommand.choiceArgument];
  return [c.CreateAndExerciseCommand.createArguments, c.CreateAndExerciseCommand.choiceArgument];
}

/** A protobuf Duration in micros (the nanos below a microsecond are dropped). */
const relMicros = (d: { seconds: number; nanos: number }): bigint => BigInt(d.seconds) * 1_000_000n + BigInt(Math.floor(d.nanos / 1000));

/** The deduplication key of a command: its user, command id and (set of) actAs parties. */
export const dedupKey = (userId: string, commandId: string, actAs: string[]): string =>
  sha256Hex(JSON.stringify([userId, commandId, [...new Set(actAs)].sort()]));

const invalidField = (field: string, why: string): CantonError =>
  new CantonError('INVALID_FIELD', `Invalid field ${field}: ${why}`, { context: { field } });

/** Checks a submission's fields, parties and synchronizer (shared by submit and prepare). */
export function validateSubmission(sim: SimContext, cmds: JsCommandsInput): void {
  // as Canton's JSON API, before anything else looks at the values
  for (const c of cmds.commands) for (const v of commandValues(c)) checkValueDepth(v);
  if (cmds.commandId.length === 0 || cmds.commandId.length > 255) throw invalidField('commandId', 'must be 1..255 characters');
  if (cmds.actAs.length === 0)
    throw new CantonError('MISSING_FIELD', 'The submitting party is missing: actAs must name at least one party', {
      context: { field: 'actAs' },
    });
  if (cmds.commands.length === 0) throw new CantonError('MISSING_FIELD', 'The commands field is empty', { context: { field: 'commands' } });
  for (const p of [...cmds.actAs, ...(cmds.readAs ?? [])]) if (!sim.store.hasParty(p)) throw partyNotKnown(p);
  if (cmds.synchronizerId && !sim.synchronizers.some((s) => s.id === cmds.synchronizerId))
    throw new CantonError('SYNCHRONIZER_NOT_FOUND', `Unknown synchronizer ${cmds.synchronizerId}`, {
      context: { synchronizerId: cmds.synchronizerId },
    });
  if (cmds.minLedgerTimeAbs !== undefined && cmds.minLedgerTimeRel !== undefined)
    throw new CantonError('INVALID_ARGUMENT', 'minLedgerTimeAbs and minLedgerTimeRel must not be set at the same time', {
      context: { field: 'minLedgerTimeAbs' },
    });
  if (cmds.minLedgerTimeAbs !== undefined && isoToMicros(cmds.minLedgerTimeAbs) === undefined)
    throw invalidField('minLedgerTimeAbs', `'${cmds.minLedgerTimeAbs}' is not an RFC 3339 timestamp`);
  if (cmds.minLedgerTimeRel && (cmds.minLedgerTimeRel.seconds < 0 || cmds.minLedgerTimeRel.nanos < 0))
    throw invalidField('minLedgerTimeRel', 'duration must not be negative');
  if (cmds.minLedgerTimeRel) {
    // Canton: the ledger time (now + minLedgerTimeRel) must be a Daml timestamp (CommandsValidator.validateLedgerTime)
    const t = sim.clock.nowMicros() + relMicros(cmds.minLedgerTimeRel);
    if (t > MAX_DAML_TIMESTAMP_MICROS)
      throw new CantonError(
        'INVALID_ARGUMENT',
        'The submitted request has invalid arguments: ' +
          `Can not represent command ledger time ${javaInstantString(t)} as a Daml timestamp`,
      );
  }
}

/**
 * Authenticates disclosed contracts: the blob must decode to a contract this ledger created, byte for
 * byte (a modified blob is refused), and agree with the optional templateId / contractId /
 * synchronizerId. Returns the disclosed contract ids (usable by non-stakeholders in interpretation).
 */
export function resolveDisclosed(sim: SimContext, disclosed: DisclosedContractInput[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const [i, d] of (disclosed ?? []).entries()) {
    const field = `disclosedContracts[${i}]`;
    const bad = (why: string): CantonError =>
      new CantonError('INVALID_ARGUMENT', `Invalid disclosed contract ${field}: ${why}`, { context: { field } });
    let decoded: { v?: unknown; contractId?: unknown } | null;
    try {
      decoded = JSON.parse(Buffer.from(d.createdEventBlob, 'base64').toString('utf8')) as typeof decoded;
    } catch {
      throw bad('the createdEventBlob cannot be decoded');
    }
    if (decoded?.v !== 1 || typeof decoded.contractId !== 'string') throw bad('the createdEventBlob cannot be decoded');
    const cid = decoded.contractId;
    if (d.contractId !== undefined && d.contractId !== cid) throw bad(`contractId ${d.contractId} does not match the blob (${cid})`);
    const row = sim.store.contract(cid);
    if (!row) throw contractNotFound(cid);
    if (createdEventBlob(row.node) !== d.createdEventBlob) throw bad(`the createdEventBlob of ${cid} failed authentication`);
    if (d.templateId !== undefined) {
      const t = sim.registry.findTemplate(d.templateId);
      const template = `${row.node.packageId}:${row.node.qualifiedName}`;
      if (!t || t.pkg.def.name !== row.node.packageName || t.qualifiedName !== row.node.qualifiedName)
        throw bad(`templateId ${d.templateId} does not match the contract's template ${template}`);
    }
    if (d.synchronizerId && d.synchronizerId !== row.synchronizerId)
      throw bad(`synchronizerId ${d.synchronizerId} does not match the contract's synchronizer ${row.synchronizerId}`);
    out.add(cid);
  }
  return out;
}

/** Ledger time of a submission: the record time, raised to minLedgerTimeAbs / now + minLedgerTimeRel. */
export function ledgerTimeOf(cmds: Pick<JsCommandsInput, 'minLedgerTimeAbs' | 'minLedgerTimeRel'>, now: bigint): bigint {
  let min = 0n;
  if (cmds.minLedgerTimeAbs !== undefined) min = isoToMicros(cmds.minLedgerTimeAbs) ?? 0n;
  if (cmds.minLedgerTimeRel) min = now + relMicros(cmds.minLedgerTimeRel);
  const let_ = min > now ? min : now;
  if (let_ - now > LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS)
    throw new CantonError(
      'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
      `The ledger time ${microsToIso(let_)} requested by minLedgerTime is more than ` +
        `${LEDGER_TIME_RECORD_TIME_TOLERANCE_MICROS / 1_000_000n}s after the record time ${microsToIso(now)}`,
      { context: { ledger_time: microsToIso(let_), record_time: microsToIso(now) }, definiteAnswer: true },
    );
  return let_;
}

/** The deduplication period of a submission in micros (at most the participant's maximum). */
export function dedupPeriodOf(sim: SimContext, cmds: JsCommandsInput): bigint {
  let dedupMicros = sim.settings.maxDeduplicationMicros;
  const dp = cmds.deduplicationPeriod;
  if (dp && 'DeduplicationDuration' in dp) {
    const d = dp.DeduplicationDuration.value;
    if (d.seconds < 0 || d.nanos < 0) throw invalidField('deduplicationPeriod', 'duration must not be negative');
    dedupMicros = relMicros(d);
    if (dedupMicros > sim.settings.maxDeduplicationMicros) dedupMicros = sim.settings.maxDeduplicationMicros;
  }
  return dedupMicros;
}

/** Throws DUPLICATE_COMMAND when the command was accepted within its deduplication period (inside `commit`). */
export function checkDuplicate(sim: SimContext, cmds: JsCommandsInput, key: string, dedupMicros: bigint, now: bigint): void {
  const prior = sim.store.dedupGet(key);
  if (!prior) return;
  const dp = cmds.deduplicationPeriod;
  const duplicate = dp && 'DeduplicationOffset' in dp ? prior.offset > dp.DeduplicationOffset.value : now - prior.recordTime < dedupMicros;
  if (duplicate)
    throw new CantonError('DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', {
      context: {
        existing_submission_id: prior.submissionId ?? '',
        completion_offset: String(prior.offset),
        commandId: cmds.commandId,
      },
      definiteAnswer: false,
    });
}
