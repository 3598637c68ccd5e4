/**
 * Command interpreter: turns Create / Exercise / ExerciseByKey / CreateAndExercise commands into a
 * transaction tree (pre-order node ids), enforcing authorization, visibility, keys and ensure clauses.
 * It only reads the store; the caller persists the result in the same SQLite transaction.
 */
import { CantonError, contractNotFound, partyNotKnown } from '../errors.js';
import { contractIdFor, sha256Hex } from '../ids.js';
import type { CreatedNode, ExercisedNode, LfValue, TxNode } from '../model.js';
import { stakeholdersOf } from '../model.js';
import { canonicalJson } from '../packages/canonical.js';
import type { PackageRegistry, ResolvedInterface, ResolvedTemplate } from '../packages/registry.js';
import type { ChoiceDef, LfRecord, PartyExpr } from '../packages/types.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { normalizeRecord, partiesIn } from './values.js';

export type SimCommand =
  | { type: 'create'; templateId: string; createArguments: unknown }
  | { type: 'exercise'; templateId: string; contractId: string; choice: string; choiceArgument: unknown }
  | { type: 'exerciseByKey'; templateId: string; contractKey: unknown; choice: string; choiceArgument: unknown }
  | { type: 'createAndExercise'; templateId: string; createArguments: unknown; choice: string; choiceArgument: unknown };

export interface InterpreterEnv {
  store: LedgerStore;
  registry: PackageRegistry;
  effectiveAt: string;
  /** Seed for deterministic contract ids (unique per transaction). */
  idSeed: string;
  defaultSynchronizerId: string;
  requestedSynchronizerId?: string;
  /**
   * Disclosed contracts (already authenticated against the ledger by the caller): usable by the
   * submitters even when they are not stakeholders.
   */
  disclosed?: Set<string>;
}

export interface InterpretedTransaction {
  nodes: TxNode[];
  /** Contracts created before this transaction and consumed by it. */
  archived: string[];
  /** Contracts created and still active at the end of the transaction. */
  created: CreatedNode[];
  /** Contracts created before this transaction that it uses (exercised or fetched): its input contracts. */
  inputs: string[];
  synchronizerId: string;
}

interface ActiveContract {
  node: CreatedNode;
  template: ResolvedTemplate;
  args: LfRecord;
  local: boolean;
  synchronizerId?: string;
}

const MAX_DEPTH = 100;
const MAX_NODES = 10_000;

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

export function keyHashOf(packageName: string, qualifiedName: string, key: LfValue): string {
  return sha256Hex(canonicalJson({ t: `${packageName}:${qualifiedName}`, k: key }));
}

export function interpret(cmds: SimCommand[], actAs: string[], readAs: string[], env: InterpreterEnv): InterpretedTransaction {
  const nodes: TxNode[] = [];
  const local = new Map<string, ActiveContract>();
  const consumed = new Set<string>();
  const archivedPre: string[] = [];
  const inputs = new Set<string>();
  const readers = new Set([...actAs, ...readAs]);
  let synchronizerId: string | undefined = env.requestedSynchronizerId;

  const knownParty = (p: string): boolean => env.store.hasParty(p);
  const requireKnown = (ps: string[]): void => {
    for (const p of ps) if (!knownParty(p)) throw partyNotKnown(p);
  };

  const useSynchronizer = (sid: string): void => {
    if (synchronizerId === undefined) synchronizerId = sid;
    else if (synchronizerId !== sid)
      throw new CantonError(
        'INVALID_ARGUMENT',
        `The transaction uses contracts on different synchronizers (${synchronizerId} and ${sid}); reassign them first`,
        { context: { synchronizerId: sid } },
      );
  };

  const lookup = (cid: string, visibleTo: Set<string>): ActiveContract => {
    const notFound = (): never => {
      throw contractNotFound(cid);
    };
    if (consumed.has(cid)) notFound();
    const l = local.get(cid);
    if (l) return l;
    const row = env.store.contract(cid);
    if (!row || row.archivedOffset !== null || row.unassignedId !== null) return notFound();
    if (!stakeholdersOf(row.node).some((p) => visibleTo.has(p)) && !env.disclosed?.has(cid)) return notFound();
    const template = env.registry.templateOfNode(row.node);
    if (!template) return notFound();
    useSynchronizer(row.synchronizerId);
    inputs.add(cid);
    return { node: row.node, template, args: row.node.createArgument as LfRecord, local: false, synchronizerId: row.synchronizerId };
  };

  // `contract` expressions may name a nested record field with a dotted path (e.g. `settlement.executor` of a view)
  const fieldAt = (rec: LfRecord, path: string): LfValue =>
    path.split('.').reduce<LfValue>((v, k) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v[k] ?? null) : null), rec);
  const partiesOf = (exprs: PartyExpr[], contract: LfRecord, arg: LfRecord): string[] =>
    sorted(exprs.flatMap((e) => partiesIn('contract' in e ? fieldAt(contract, e.contract) : fieldAt(arg, e.argument))));

  const authorize = (required: string[], authorizers: Set<string>, what: string): void => {
    const missing = required.filter((p) => !authorizers.has(p));
    if (missing.length > 0)
      throw new CantonError(
        'DAML_AUTHORIZATION_ERROR',
        `Interpretation error: Error: node ${what} requires authorizers ` +
          `${required.join(', ')}, but only ${[...authorizers].sort().join(', ')} were given`,
        { context: { missingAuthorizers: missing.join(',') } },
      );
  };

  const doCreate = (template: ResolvedTemplate, rawArgs: unknown, authorizers: Set<string>, parentWitnesses: string[]): string => {
    if (nodes.length >= MAX_NODES) throw new CantonError('DAML_INTERPRETATION_ERROR', 'Transaction too large');
    // uploaded (Daml-LF) templates: generic behaviour from the registry (packages/uploaded.ts)
    const args = template.uploaded
      ? template.uploaded.normalizeArguments(rawArgs, 'createArguments')
      : normalizeRecord(template.def.fields, rawArgs, 'createArguments');
    const failure = template.def.ensure?.(args);
    if (failure)
      throw new CantonError(
        'DAML_INTERPRETATION_ERROR',
        `Interpretation error: Template precondition violated in ${template.templateId}: ${failure}`,
        {
          context: { templateId: template.templateId },
        },
      );
    const generic = template.uploaded?.stakeholders(args, authorizers);
    const signatories = generic?.signatories ?? sorted(template.def.signatories.flatMap((f) => partiesIn(fieldAt(args, f))));
    const observers =
      generic?.observers ??
      sorted(template.def.observers.flatMap((f) => partiesIn(fieldAt(args, f)))).filter((p) => !signatories.includes(p));
    if (signatories.length === 0) throw new CantonError('DAML_INTERPRETATION_ERROR', 'A contract needs at least one signatory');
    requireKnown([...signatories, ...observers]);
    authorize(signatories, authorizers, `create ${template.qualifiedName}`);
    let contractKey: LfValue | undefined;
    let contractKeyHash: string | undefined;
    if (template.def.key) {
      const k: LfRecord = {};
      for (const f of template.def.key.fields) k[f] = args[f] ?? null;
      contractKey = k;
      contractKeyHash = keyHashOf(template.pkg.def.name, template.qualifiedName, k);
      if (activeByKey(contractKeyHash, authorizers))
        throw new CantonError(
          'DUPLICATE_CONTRACT_KEY',
          `Interpretation error: Error: Contract key is not unique for ${template.templateId}`,
          {
            context: { templateId: template.templateId, keyHash: contractKeyHash },
          },
        );
    }
    const nodeId = nodes.length;
    const contractId = contractIdFor(`${env.idSeed}:${nodeId}`);
    const stakeholders = sorted([...signatories, ...observers]);
    const node: CreatedNode = {
      kind: 'create',
      nodeId,
      contractId,
      packageId: template.pkg.id,
      packageName: template.pkg.def.name,
      qualifiedName: template.qualifiedName,
      createArgument: args,
      signatories,
      observers,
      ...(contractKey !== undefined ? { contractKey, contractKeyHash } : {}),
      createdAt: env.effectiveAt,
      implementedInterfaces: template.implementedInterfaces,
      witnesses: sorted([...stakeholders, ...parentWitnesses]),
    };
    nodes.push(node);
    local.set(contractId, { node, template, args, local: true });
    return contractId;
  };

  const activeByKey = (keyHash: string, visibleTo: Set<string>): ActiveContract | undefined => {
    for (const c of local.values()) if (c.node.contractKeyHash === keyHash && !consumed.has(c.node.contractId)) return c;
    const row = env.store.contractByKey(keyHash);
    if (!row || consumed.has(row.contractId) || row.unassignedId !== null) return undefined;
    try {
      return lookup(row.contractId, new Set([...visibleTo, ...stakeholdersOf(row.node)]));
    } catch {
      return undefined;
    }
  };

  const doExercise = (
    c: ActiveContract,
    choiceName: string,
    rawArg: unknown,
    authorizers: Set<string>,
    parentWitnesses: string[],
    depth: number,
    viaInterface?: ResolvedInterface,
  ): LfValue => {
    if (depth > MAX_DEPTH) throw new CantonError('DAML_INTERPRETATION_ERROR', 'Maximum choice nesting depth exceeded');
    if (nodes.length >= MAX_NODES) throw new CantonError('DAML_INTERPRETATION_ERROR', 'Transaction too large');
    const choice: ChoiceDef | undefined = viaInterface
      ? env.registry.interfaceChoice(viaInterface, choiceName)
      : env.registry.choice(c.template, choiceName);
    if (!choice)
      throw new CantonError(
        'COMMAND_PREPROCESSING_FAILED',
        `Couldn't find requested choice ${choiceName} for ` +
          (viaInterface ? `interface ${viaInterface.interfaceId}` : `template ${c.template.templateId}`),
        { context: { choice: choiceName, templateId: viaInterface?.interfaceId ?? c.template.templateId } },
      );
    // through an interface, controllers and observers are read from the interface view; the body is the template's
    let subject = c.args;
    let view: LfRecord | undefined;
    let body = choice.body;
    if (viaInterface) {
      const impl = env.registry.implementation(c.template, viaInterface.interfaceId);
      if (!impl)
        throw new CantonError(
          'DAML_INTERPRETATION_ERROR',
          `Interpretation error: Error: contract ${c.node.contractId} ` +
            `(${c.template.templateId}) does not implement interface ${viaInterface.interfaceId}`,
          { context: { contractId: c.node.contractId, interfaceId: viaInterface.interfaceId } },
        );
      view = impl.view(c.args);
      subject = view;
      body = impl.choices?.[choice.name] ?? choice.body;
    }
    const arg = normalizeRecord(choice.argument, rawArg ?? (choice.argument.length === 0 ? {} : rawArg), 'choiceArgument');
    const controllers = choice.name === 'Archive' && !viaInterface ? c.node.signatories : partiesOf(choice.controllers, subject, arg);
    const choiceObservers = partiesOf(choice.observers ?? [], subject, arg);
    requireKnown([...controllers, ...choiceObservers]);
    authorize(controllers, authorizers, `exercise ${c.template.qualifiedName}:${choice.name}`);
    const stakeholders = stakeholdersOf(c.node);
    const informees = sorted([...(choice.consuming ? stakeholders : c.node.signatories), ...controllers, ...choiceObservers]);
    const witnesses = sorted([...informees, ...parentWitnesses]);
    const node: ExercisedNode = {
      kind: 'exercise',
      nodeId: nodes.length,
      contractId: c.node.contractId,
      packageId: c.template.pkg.id,
      packageName: c.template.pkg.def.name,
      qualifiedName: c.template.qualifiedName,
      ...(viaInterface ? { interfaceId: viaInterface.interfaceId } : {}),
      choice: choice.name,
      choiceArgument: arg,
      actingParties: controllers,
      consuming: choice.consuming,
      lastDescendantNodeId: nodes.length,
      exerciseResult: null,
      stakeholders,
      signatories: c.node.signatories,
      choiceObservers,
      implementedInterfaces: c.template.implementedInterfaces,
      witnesses,
    };
    nodes.push(node);
    if (choice.consuming) {
      consumed.add(c.node.contractId);
      if (!c.local) archivedPre.push(c.node.contractId);
    }
    const bodyAuthorizers = new Set([...c.node.signatories, ...controllers]);
    const result = body({
      self: c.node.contractId,
      contract: c.args,
      ...(view ? { view } : {}),
      arg,
      actors: controllers,
      ledgerTime: env.effectiveAt,
      create: (tpl, args) => doCreate(resolveLocal(c.template, tpl), args, bodyAuthorizers, witnesses),
      exercise: (cid, ch, a) =>
        doExercise(lookup(cid, new Set([...bodyAuthorizers, ...readers])), ch, a, bodyAuthorizers, witnesses, depth + 1),
      fetch: (cid, tpl) => {
        const f = lookup(cid, new Set([...bodyAuthorizers, ...readers]));
        if (f.template.qualifiedName !== tpl)
          throw new CantonError('WRONGLY_TYPED_CONTRACT', `Contract ${cid} is a ${f.template.qualifiedName}, expected ${tpl}`);
        return f.args;
      },
      fail: (message) => {
        throw new CantonError('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: User failure: ${message}`, {
          context: { choice: choice.name },
        });
      },
    });
    node.exerciseResult = result;
    node.lastDescendantNodeId = nodes.length - 1;
    return result;
  };

  const resolveLocal = (from: ResolvedTemplate, qn: string): ResolvedTemplate => {
    const t = env.registry.templateIn(from.pkg, qn);
    if (!t) throw new CantonError('DAML_INTERPRETATION_ERROR', `Unknown template ${qn} in package ${from.pkg.def.name}`);
    return t;
  };

  const topAuth = new Set(actAs);
  /** Checks the command's template id against the contract; returns the interface when it names one. */
  const checkTemplate = (c: ActiveContract, templateId: string): ResolvedInterface | undefined => {
    const t = env.registry.findTemplate(templateId);
    if (!t) {
      // an interface: for `#name` ids the family member the contract's template implements
      const family = env.registry.interfacesFor(templateId);
      if (family.length > 0) return env.registry.interfaceOfTemplate(templateId, c.template) ?? family[0];
      env.registry.template(templateId); // throws the right error
      return undefined;
    }
    if (t.key !== c.template.key)
      throw new CantonError(
        'WRONGLY_TYPED_CONTRACT',
        `Contract ${c.node.contractId} is of template ${c.template.templateId}, not ${templateId}`,
        {
          context: { contractId: c.node.contractId, expected: templateId, actual: c.template.templateId },
        },
      );
    return undefined;
  };

  for (const cmd of cmds) {
    switch (cmd.type) {
      case 'create':
        doCreate(env.registry.template(cmd.templateId), cmd.createArguments, topAuth, []);
        break;
      case 'exercise': {
        if (env.registry.interfacesFor(cmd.templateId).length === 0) env.registry.template(cmd.templateId);
        const c = lookup(cmd.contractId, readers);
        const viaInterface = checkTemplate(c, cmd.templateId);
        doExercise(c, cmd.choice, cmd.choiceArgument, topAuth, [], 0, viaInterface);
        break;
      }
      case 'exerciseByKey': {
        const t = env.registry.template(cmd.templateId);
        if (!t.def.key) throw new CantonError('COMMAND_PREPROCESSING_FAILED', `Template ${t.templateId} does not have a contract key`);
        const keyFields = t.def.fields.filter((f) => t.def.key?.fields.includes(f.name));
        const key = normalizeRecord(keyFields, cmd.contractKey, 'contractKey');
        const hash = keyHashOf(t.pkg.def.name, t.qualifiedName, key);
        const c = activeByKey(hash, readers);
        if (!c || !stakeholdersOf(c.node).some((p) => readers.has(p)))
          throw new CantonError('CONTRACT_KEY_NOT_FOUND', `Couldn't find contract key for template ${t.templateId}`, {
            context: { templateId: t.templateId, keyHash: hash },
          });
        doExercise(c, cmd.choice, cmd.choiceArgument, topAuth, [], 0);
        break;
      }
      case 'createAndExercise': {
        const t = env.registry.template(cmd.templateId);
        const cid = doCreate(t, cmd.createArguments, topAuth, []);
        const c = local.get(cid) as ActiveContract;
        doExercise(c, cmd.choice, cmd.choiceArgument, topAuth, [], 0);
        break;
      }
    }
  }
  const created = [...local.values()].filter((c) => !consumed.has(c.node.contractId)).map((c) => c.node);
  // every package the transaction uses must be vetted on its synchronizer (NO_SYNCHRONIZER_FOR_SUBMISSION)
  env.registry.checkVetted(
    nodes.map((n) => n.packageId),
    synchronizerId ?? env.defaultSynchronizerId,
    env.effectiveAt,
  );
  return { nodes, archived: archivedPre, created, inputs: [...inputs], synchronizerId: synchronizerId ?? env.defaultSynchronizerId };
}
