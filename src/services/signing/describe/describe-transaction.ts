/**
 * Field-by-field description of a prepared transaction: every node reachable from the roots (what the V2 hash covers)
 * in tree order, with its template, choice, parties and its values typed by the Daml-LF types of verified packages
 * (create arguments, choice arguments and exercise results), plus the input contracts it uses.
 */
import type { Identifier, PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import type { PackageIndex, Type } from '../../../daml-lf/index.js';
import { microsToIso } from '../daml-value.js';
import { typedValue, untypedValue, type DValue, type TypingContext } from './typed-value.js';

export interface DescribedNode {
  nodeId: string;
  depth: number;
  kind: 'create' | 'exercise' | 'fetch' | 'rollback';
  /** Below a rollback node: its effects are undone. */
  rolledBack: boolean;
  /** `packageId:Module:Entity`. */
  templateId: string | null;
  /** `package-name:Module:Entity` (package id when the name is unknown). */
  template: string | null;
  interfaceId: string | null;
  choice: string | null;
  contractId: string | null;
  consuming: boolean;
  actingParties: string[];
  signatories: string[];
  /** Stakeholders that are not signatories, and choice observers. */
  observers: string[];
  /** Create arguments or choice argument. */
  argument: DValue | null;
  /** Exercise result. */
  result: DValue | null;
}

export interface DescribedInput {
  contractId: string;
  templateId: string;
  template: string;
  createdAt: string;
  signatories: string[];
  argument: DValue;
}

export interface TransactionDescription {
  nodes: DescribedNode[];
  inputs: DescribedInput[];
  /** Packages whose types the description needs but were not available. */
  missingPackages: string[];
  /** Packages whose types described the transaction. */
  usedPackages: string[];
  /** Values that do not fit their package's types. */
  problems: string[];
  /** Every value typed by verified packages and none misfit. */
  complete: boolean;
}

const idOf = (i: Identifier): string => `${i.packageId}:${i.moduleName}:${i.entityName}`;
const idText = (i: Identifier | undefined): string | null => (i ? idOf(i) : null);
const display = (i: Identifier | undefined, packageName: string): string | null =>
  i ? `${packageName || i.packageId}:${i.moduleName}:${i.entityName}` : null;
const conOf = (i: Identifier): Extract<Type, { kind: 'con' }> => ({
  kind: 'con',
  packageId: i.packageId,
  module: i.moduleName,
  name: i.entityName,
  args: [],
});

/** Describes `tx` (pass a copy: record labels are set from the packages' field names). */
export function describeTransaction(tx: PreparedTransaction, index: PackageIndex): TransactionDescription {
  const ctx: TypingContext = { index, missing: new Set(), used: new Set(), problems: [], cidTemplates: new Map(), untyped: 0 };
  const byId = new Map<string, NonNullable<PreparedTransaction['transaction']>['nodes'][number]>();
  for (const n of tx.transaction?.nodes ?? []) {
    byId.set(n.nodeId, n);
    if (n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    const [cid, tid] =
      t.oneofKind === 'create'
        ? [t.create.contractId, t.create.templateId]
        : t.oneofKind === 'exercise'
          ? [t.exercise.contractId, t.exercise.templateId]
          : t.oneofKind === 'fetch'
            ? [t.fetch.contractId, t.fetch.templateId]
            : [undefined, undefined];
    if (cid && tid) ctx.cidTemplates.set(cid, `${tid.moduleName}:${tid.entityName}`);
  }
  for (const ic of tx.metadata?.inputContracts ?? [])
    if (ic.contract.oneofKind === 'v1' && ic.contract.v1.templateId)
      ctx.cidTemplates.set(ic.contract.v1.contractId, `${ic.contract.v1.templateId.moduleName}:${ic.contract.v1.templateId.entityName}`);

  /** A template's contract arguments. */
  const contractArgument = (templateId: Identifier | undefined, arg: Value | undefined, path: string): DValue => {
    if (!templateId) return untypedValue(arg, ctx);
    if (!index.get(templateId.packageId)) {
      ctx.missing.add(templateId.packageId);
      return untypedValue(arg, ctx);
    }
    if (!index.template(idOf(templateId))) {
      ctx.problems.push(`${path}: package ${templateId.packageId} has no template ${templateId.moduleName}:${templateId.entityName}`);
      return untypedValue(arg, ctx);
    }
    return typedValue(arg, conOf(templateId), templateId.packageId, path, ctx);
  };

  /** The argument and result types of a choice, or why they are unknown. */
  const choiceTypes = (
    templateId: Identifier | undefined,
    interfaceId: Identifier | undefined,
    choice: string,
  ): { from: string; arg: Type; result: Type } | { missing: true } | string => {
    const owner = interfaceId ?? templateId;
    if (!owner) return 'the exercise names no template';
    if (!index.get(owner.packageId)) {
      ctx.missing.add(owner.packageId);
      return { missing: true };
    }
    const choices = interfaceId ? index.interface(idOf(interfaceId))?.iface.choices : index.template(idOf(owner))?.template.choices;
    if (!choices)
      return `package ${owner.packageId} has no ${interfaceId ? 'interface' : 'template'} ${owner.moduleName}:${owner.entityName}`;
    const c = choices.find((x) => x.name === choice);
    if (!c) return `${owner.moduleName}:${owner.entityName} has no choice ${choice}`;
    return { from: owner.packageId, arg: c.argType, result: c.returnType };
  };

  const nodes: DescribedNode[] = [];
  const visited = new Set<string>();
  const visit = (nodeId: string, depth: number, rolledBack: boolean): void => {
    if (visited.has(nodeId) || depth > 1000) return;
    visited.add(nodeId);
    const n = byId.get(nodeId);
    if (!n || n.versionedNode.oneofKind !== 'v1') return;
    const t = n.versionedNode.v1.nodeType;
    const base = {
      nodeId,
      depth,
      rolledBack,
      interfaceId: null,
      choice: null,
      consuming: false,
      actingParties: [],
      argument: null,
      result: null,
    };
    switch (t.oneofKind) {
      case 'create': {
        const c = t.create;
        nodes.push({
          ...base,
          kind: 'create',
          templateId: idText(c.templateId),
          template: display(c.templateId, c.packageName),
          contractId: c.contractId,
          signatories: c.signatories,
          observers: c.stakeholders.filter((p) => !c.signatories.includes(p)),
          argument: contractArgument(c.templateId, c.argument, `node ${nodeId} (create)`),
        });
        return;
      }
      case 'exercise': {
        const e = t.exercise;
        const path = `node ${nodeId} (${e.choiceId})`;
        const types = choiceTypes(e.templateId, e.interfaceId, e.choiceId);
        let argument: DValue;
        let result: DValue | null;
        if (typeof types === 'object' && 'arg' in types) {
          argument = typedValue(e.chosenValue, types.arg, types.from, `${path} argument`, ctx);
          result = e.exerciseResult ? typedValue(e.exerciseResult, types.result, types.from, `${path} result`, ctx) : null;
        } else {
          // A missing package is reported once, as such; any other reason is a problem of this node.
          if (typeof types === 'string') ctx.problems.push(`${path}: ${types}`);
          argument = untypedValue(e.chosenValue, ctx);
          result = e.exerciseResult ? untypedValue(e.exerciseResult, ctx) : null;
        }
        nodes.push({
          ...base,
          kind: 'exercise',
          templateId: idText(e.templateId),
          template: display(e.templateId, e.packageName),
          interfaceId: idText(e.interfaceId),
          choice: e.choiceId,
          contractId: e.contractId,
          consuming: e.consuming,
          actingParties: e.actingParties,
          signatories: e.signatories,
          observers: [...new Set([...e.stakeholders.filter((p) => !e.signatories.includes(p)), ...e.choiceObservers])],
          argument,
          result,
        });
        for (const child of e.children) visit(child, depth + 1, rolledBack);
        return;
      }
      case 'fetch': {
        const f = t.fetch;
        nodes.push({
          ...base,
          kind: 'fetch',
          templateId: idText(f.templateId),
          template: display(f.templateId, f.packageName),
          interfaceId: idText(f.interfaceId),
          contractId: f.contractId,
          actingParties: f.actingParties,
          signatories: f.signatories,
          observers: f.stakeholders.filter((p) => !f.signatories.includes(p)),
        });
        return;
      }
      case 'rollback':
        nodes.push({ ...base, kind: 'rollback', templateId: null, template: null, contractId: null, signatories: [], observers: [] });
        for (const child of t.rollback.children) visit(child, depth + 1, true);
        return;
      default:
        return;
    }
  };
  for (const r of tx.transaction?.roots ?? []) visit(r, 0, false);

  const inputs: DescribedInput[] = [];
  for (const ic of tx.metadata?.inputContracts ?? []) {
    if (ic.contract.oneofKind !== 'v1') continue;
    const c = ic.contract.v1;
    inputs.push({
      contractId: c.contractId,
      templateId: idText(c.templateId) ?? '',
      template: display(c.templateId, c.packageName) ?? '',
      createdAt: microsToIso(ic.createdAt),
      signatories: c.signatories,
      argument: contractArgument(c.templateId, c.argument, `input contract ${c.contractId.slice(0, 12)}…`),
    });
  }
  const missingPackages = [...ctx.missing].sort();
  return {
    nodes,
    inputs,
    missingPackages,
    usedPackages: [...ctx.used].sort(),
    problems: ctx.problems,
    complete: missingPackages.length === 0 && ctx.problems.length === 0 && ctx.untyped === 0,
  };
}
