/**
 * Commands on uploaded (Daml-LF) packages, run by the Daml-LF engine: template / interface ids resolved by package id
 * or `#package-name` (the preferred vetted version), arguments imported with their LF types, each command run as its
 * update on a ledger session over the simulator's store, and the resulting tree flattened to the simulator's
 * transaction nodes (pre-order ids, witnesses = informees of the node and of its ancestors).
 */
import type { QualifiedName } from '../../daml-lf/ast/ast.js';
import { isoToMicros } from '../clock.js';
import { CantonError } from '../errors.js';
import { contractIdFor } from '../ids.js';
import type { CreatedNode, ExercisedNode, TxNode } from '../model.js';
import type { InterpretedTransaction, InterpreterEnv, SimCommand } from './interpreter.js';
import { keyHashOf } from './interpreter.js';
import { fromJson } from './lf/convert.js';
import { qnText } from './lf/defs.js';
import type { LfEngine } from './lf/engine.js';
import { engineFor } from './lf-engine-cache.js';
import type { LedgerHost, StoredContract } from './lf/ledger/host.js';
import type { PNode } from './lf/ledger/ptx.js';
import { LedgerSession } from './lf/ledger/session.js';
import type { Machine } from './lf/machine.js';
import { VContractId, type V, type VRecord } from './lf/value.js';
import { toCantonError } from './lf-errors.js';

export interface ResolvedLfId {
  qn: QualifiedName;
  kind: 'template' | 'interface';
}

const splitQn = (packageId: string, qualifiedName: string): QualifiedName => {
  const i = qualifiedName.lastIndexOf(':');
  return { packageId, module: qualifiedName.slice(0, i), name: qualifiedName.slice(i + 1) };
};

/**
 * Resolves a command's `<package-id or #name>:Module:Entity` to a template or interface of an uploaded package
 * (through the registry: `#name` = the preferred vetted member of the family; for an interface, the member that the
 * target contract's template implements).
 */
export function resolveLfId(env: InterpreterEnv, id: string, contractId?: string): ResolvedLfId | undefined {
  const reg = env.registry;
  const t = reg.findTemplate(id);
  if (t) return t.pkg.uploaded ? { qn: splitQn(t.pkg.id, t.qualifiedName), kind: 'template' } : undefined;
  const row = contractId !== undefined ? env.store.contract(contractId) : undefined;
  const owner = row ? reg.templateOfNode(row.node) : undefined;
  const i = (owner ? reg.interfaceOfTemplate(id, owner) : undefined) ?? reg.findInterface(id);
  return i?.pkg.uploaded ? { qn: splitQn(i.pkg.id, i.qualifiedName), kind: 'interface' } : undefined;
}

/** True when the command runs Daml-LF code: its template (or the target contract's package) is uploaded. */
export function isLfCommand(env: InterpreterEnv, cmd: SimCommand): boolean {
  if (!env.registry.hasUploaded) return false;
  if (cmd.type === 'exercise') {
    const row = env.store.contract(cmd.contractId);
    if (row) return env.registry.package(row.node.packageId)?.uploaded === true;
  }
  return resolveLfId(env, cmd.templateId, cmd.type === 'exercise' ? cmd.contractId : undefined) !== undefined;
}

function storedContract(env: InterpreterEnv, cid: string): StoredContract | undefined {
  const row = env.store.contract(cid);
  if (!row || row.archivedOffset !== null || row.unassignedId !== null) return undefined;
  const n = row.node;
  const c: StoredContract = {
    contractId: cid,
    packageId: n.packageId,
    packageName: n.packageName,
    qualifiedName: n.qualifiedName,
    argument: n.createArgument,
    signatories: n.signatories,
    observers: n.observers,
    synchronizerId: row.synchronizerId,
  };
  if (n.contractKeyHash) c.keyHash = n.contractKeyHash;
  return c;
}

/** Interprets commands on uploaded packages (see the module doc); failures are CantonErrors. */
export function interpretLf(cmds: SimCommand[], actAs: string[], readAs: string[], env: InterpreterEnv): InterpretedTransaction {
  let synchronizerId = env.requestedSynchronizerId;
  const ledgerTime = isoToMicros(env.effectiveAt) ?? 0n;
  const syncFor = (): string => synchronizerId ?? env.defaultSynchronizerId;
  const host: LedgerHost = {
    activeContract: (cid) => storedContract(env, cid),
    contractByKey: (hash) => {
      const r = env.store.contractByKey(hash);
      return r && r.unassignedId === null ? r.contractId : undefined;
    },
    partyKnown: (p) => env.store.hasParty(p),
    ledgerTime,
    readers: new Set([...actAs, ...readAs]),
    disclosed: env.disclosed ?? new Set(),
    preferredPackage: (name) => env.registry.preferred(name, syncFor(), env.effectiveAt, (p) => p.uploaded)?.id,
    useSynchronizer: (sid) => {
      if (synchronizerId === undefined) synchronizerId = sid;
      else if (synchronizerId !== sid)
        throw new CantonError(
          'INVALID_ARGUMENT',
          `The transaction uses contracts on different synchronizers (${synchronizerId} and ${sid}); reassign them first`,
          {
            context: { synchronizerId: sid },
          },
        );
    },
    contractIdFor: (i) => contractIdFor(`${env.idSeed}:lf:${i}`),
    keyHash: (pkgName, qn, key) => keyHashOf(pkgName, qn, key),
  };
  const { engine } = engineFor(env.registry);
  const session = new LedgerSession(engine.defs, host, actAs);
  const m = engine.machine();
  m.host = session;
  try {
    for (const cmd of cmds) runCommand(engine, m, session, env, cmd);
  } catch (e) {
    throw toCantonError(e);
  }
  const nodes = flatten(session, env.effectiveAt);
  const consumed = session.ptx.consumed;
  const created = nodes.filter((n): n is CreatedNode => n.kind === 'create' && !consumed.has(n.contractId));
  env.registry.checkVetted(
    nodes.map((n) => n.packageId),
    syncFor(),
    env.effectiveAt,
  );
  return { nodes, archived: [...session.ptx.archivedInputs], created, inputs: [...session.ptx.inputs.keys()], synchronizerId: syncFor() };
}

function runCommand(engine: LfEngine, m: Machine, session: LedgerSession, env: InterpreterEnv, cmd: SimCommand): void {
  const r = resolveLfId(env, cmd.templateId, cmd.type === 'exercise' ? cmd.contractId : undefined);
  if (!r)
    throw new CantonError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `Template or interface not found: ${cmd.templateId}`, {
      context: { templateId: cmd.templateId },
    });
  const defs = engine.defs;
  const tyCon = (q: QualifiedName) => ({ kind: 'con' as const, ...q, args: [] });
  const importArg = (json: unknown, path: string, q: QualifiedName): VRecord => fromJson(defs, tyCon(q), json ?? {}, path) as VRecord;
  const choiceArg = (choice: string, json: unknown): V => {
    const ch =
      r.kind === 'interface'
        ? defs.iface(r.qn).def.choices.find((c) => c.name === choice)
        : defs.template(r.qn).def.choices.find((c) => c.name === choice);
    if (!ch)
      throw new CantonError('COMMAND_PREPROCESSING_FAILED', `Couldn't find requested choice ${choice} for ${r.kind} ${qnText(r.qn)}`, {
        context: { choice, templateId: qnText(r.qn) },
      });
    return fromJson(defs, ch.argBinder.type, json ?? {}, 'choiceArgument');
  };
  const run = (start: () => void): V =>
    engine.run(m, () => {
      m.ctrl = null;
      start();
      return m.run();
    });
  const needTemplate = (): void => {
    if (r.kind !== 'template')
      throw new CantonError('COMMAND_PREPROCESSING_FAILED', `${cmd.type} needs a template, ${qnText(r.qn)} is an interface`, {
        context: { templateId: cmd.templateId },
      });
  };
  switch (cmd.type) {
    case 'create': {
      needTemplate();
      const arg = importArg(cmd.createArguments, 'createArguments', r.qn);
      run(() => session.create(m, r.qn, arg));
      return;
    }
    case 'exercise': {
      const arg = choiceArg(cmd.choice, cmd.choiceArgument);
      run(() => session.exercise(m, r.qn, cmd.choice, cmd.contractId, arg, r.kind === 'interface' ? r.qn : undefined));
      return;
    }
    case 'createAndExercise': {
      needTemplate();
      const arg = importArg(cmd.createArguments, 'createArguments', r.qn);
      const carg = choiceArg(cmd.choice, cmd.choiceArgument);
      const cid = run(() => session.create(m, r.qn, arg)) as VContractId;
      run(() => session.exercise(m, r.qn, cmd.choice, cid.cid, carg));
      return;
    }
    case 'exerciseByKey': {
      needTemplate();
      const t = defs.template(r.qn);
      if (!t.def.key) throw new CantonError('COMMAND_PREPROCESSING_FAILED', `Template ${qnText(r.qn)} does not have a contract key`);
      const key = fromJson(defs, t.def.key.type, cmd.contractKey, 'contractKey');
      const carg = choiceArg(cmd.choice, cmd.choiceArgument);
      run(() =>
        session.byKey(m, r.qn, key, (found) => {
          if (found === undefined)
            throw new CantonError('CONTRACT_KEY_NOT_FOUND', `Couldn't find contract key for template ${qnText(r.qn)}`, {
              context: { templateId: qnText(r.qn) },
            });
          session.exercise(m, r.qn, cmd.choice, found, carg);
        }),
      );
      return;
    }
  }
}

/** The session's node tree as the simulator's transaction nodes (fetches and rolled-back nodes are not shown). */
function flatten(session: LedgerSession, effectiveAt: string): TxNode[] {
  const out: TxNode[] = [];
  const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
  const visit = (n: PNode, parentWitnesses: string[]): void => {
    if (n.kind === 'fetch') return;
    const c = n.c;
    const stakeholders = sorted([...c.signatories, ...c.observers]);
    const qualifiedName = `${c.templateId.module}:${c.templateId.name}`;
    if (n.kind === 'create') {
      const node: CreatedNode = {
        kind: 'create',
        nodeId: out.length,
        contractId: c.cid,
        packageId: c.templateId.packageId,
        packageName: c.packageName,
        qualifiedName,
        createArgument: n.argJson,
        signatories: c.signatories,
        observers: c.observers,
        createdAt: effectiveAt,
        implementedInterfaces: c.implementedInterfaces,
        witnesses: sorted([...stakeholders, ...parentWitnesses]),
      };
      if (c.key) {
        node.contractKey = c.key.json;
        node.contractKeyHash = c.key.hash;
      }
      out.push(node);
      return;
    }
    const informees = sorted([...(n.consuming ? stakeholders : c.signatories), ...n.actors, ...n.choiceObservers]);
    const witnesses = sorted([...informees, ...parentWitnesses]);
    const node: ExercisedNode = {
      kind: 'exercise',
      nodeId: out.length,
      contractId: c.cid,
      packageId: n.templateId.packageId,
      packageName: c.packageName,
      qualifiedName: `${n.templateId.module}:${n.templateId.name}`,
      choice: n.choice,
      choiceArgument: n.argJson,
      actingParties: n.actors,
      consuming: n.consuming,
      lastDescendantNodeId: out.length,
      exerciseResult: n.result,
      stakeholders,
      signatories: c.signatories,
      choiceObservers: n.choiceObservers,
      implementedInterfaces: c.implementedInterfaces,
      witnesses,
    };
    if (n.iface) node.interfaceId = qnText(n.iface);
    out.push(node);
    for (const child of n.children) visit(child, witnesses);
    node.lastDescendantNodeId = out.length - 1;
  };
  for (const n of session.ptx.roots) visit(n, []);
  return out;
}
