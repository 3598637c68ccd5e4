/**
 * Ledger operations of one submission (spec "Update interpretation"; authorization as Canton's engine checks it):
 * create (precondition, signatories, observers, key), fetch / exercise of stored and local contracts (activeness,
 * visibility, template match, smart-contract-upgrade import), choice controllers / observers / authorizers, the
 * authorization context of choice bodies, interface fetch / exercise (the contract's package resolved by name).
 * Each operation evaluates Daml code through the machine (`callThen`) and finally sets the machine's value.
 */
import type { QualifiedName } from '../../../../daml-lf/ast/ast.js';
import { DowngradeError, fromJson, toJson } from '../convert.js';
import { qnText, type Defs, type TemplateRt } from '../defs.js';
import { EngineError } from '../errors.js';
import type { Machine } from '../machine.js';
import { NIL, TOKEN, VAny, VContractId, listToArray, type V, type VList, type VRecord } from '../value.js';
import type { LedgerHost } from './host.js';
import { Ptx, type ContractInfo, type ExerciseNode } from './ptx.js';

const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
const parties = (v: V): string[] => listToArray(v as VList) as string[];
const tyCon = (q: QualifiedName): { kind: 'con'; packageId: string; module: string; name: string; args: [] } => ({
  kind: 'con',
  ...q,
  args: [],
});
const qualified = (q: QualifiedName): string => `${q.module}:${q.name}`;

export class LedgerSession {
  readonly ptx: Ptx;
  /** Imported stored contracts by `cid@packageId`. */
  private readonly imported = new Map<string, ContractInfo>();

  constructor(
    readonly defs: Defs,
    readonly host: LedgerHost,
    actAs: readonly string[],
  ) {
    this.ptx = new Ptx(actAs);
  }

  checkpoint(): unknown {
    return this.ptx.checkpoint();
  }
  rollback(point: unknown): void {
    this.ptx.rollback(point);
  }

  private authError(what: string, required: Iterable<string>): never {
    const auth = [...this.ptx.authorizers].sort();
    throw new EngineError(
      'FailedAuthorization',
      `${what} requires authorizers ${[...required].sort().join(', ')}, but only ${auth.join(', ')} were given`,
    );
  }

  private requireKnown(ps: Iterable<string>): void {
    for (const p of ps)
      if (!this.host.partyKnown(p)) throw new EngineError('PartyNotKnown', `Party not known on ledger: ${p}`, { party: p });
  }

  implementedInterfaces(t: TemplateRt): string[] {
    return t.def.implements.map((i) => qnText(i.iface));
  }

  /** Runs the template's precondition, signatories, observers and key on `arg`, then `k` with the contract info. */
  contractInfo(m: Machine, t: TemplateRt, cid: string, arg: VRecord, k: (c: ContractInfo) => void, checkPrecond: boolean): void {
    const afterPrecond = (ok: V): void => {
      if (ok !== true)
        throw new EngineError('TemplatePreconditionViolated', `Template precondition violated in ${t.id}`, { templateId: t.id });
      m.callThen(t.signatories, [arg], (sigs) => {
        m.callThen(t.observers, [arg], (obs) => {
          const signatories = sortedUnique(parties(sigs));
          const observers = sortedUnique(parties(obs)).filter((p) => !signatories.includes(p));
          const info: ContractInfo = {
            cid,
            templateId: t.qn,
            packageName: t.pkg.name,
            arg,
            signatories,
            observers,
            implementedInterfaces: this.implementedInterfaces(t),
          };
          const key = t.key;
          if (!key) {
            k(info);
            return;
          }
          m.callThen(key.keyFn, [arg], (kv) => {
            m.callThen(key.maintainers, [kv], (mt) => {
              const json = toJson(kv);
              info.key = { json, maintainers: sortedUnique(parties(mt)), hash: this.host.keyHash(t.pkg.name, qualified(t.qn), json) };
              k(info);
            });
          });
        });
      });
    };
    if (checkPrecond && t.precond) m.callThen(t.precond, [arg], afterPrecond);
    else afterPrecond(true);
  }

  /** `create @T arg`: sets the machine value to the new contract id. */
  create(m: Machine, tpl: QualifiedName, arg: VRecord): void {
    const t = this.defs.template(tpl);
    const cid = this.host.contractIdFor(this.ptx.nextContractIndex());
    this.contractInfo(
      m,
      t,
      cid,
      arg,
      (c) => {
        this.requireKnown([...c.signatories, ...c.observers]);
        const auth = this.ptx.authorizers;
        if (!c.signatories.every((p) => auth.has(p))) this.authError(`create ${t.id}`, c.signatories);
        if (c.signatories.length === 0)
          throw new EngineError('FailedAuthorization', `create ${t.id}: a contract must have at least one signatory`);
        if (c.key) {
          if (c.key.maintainers.length === 0)
            throw new EngineError('CreateEmptyContractKeyMaintainers', `Contract key of ${t.id} has no maintainers`);
          if (!c.key.maintainers.every((p) => c.signatories.includes(p)))
            throw new EngineError(
              'FailedAuthorization',
              `create ${t.id}: key maintainers ${c.key.maintainers.join(', ')} are not all signatories`,
            );
          if (this.activeByKey(c.key.hash) !== undefined)
            throw new EngineError('DuplicateContractKey', `Contract key is not unique for ${t.id}`, {
              templateId: t.id,
              keyHash: c.key.hash,
            });
        }
        this.ptx.addCreate(c, toJson(arg));
        m.val = new VContractId(cid);
      },
      true,
    );
  }

  /** The active contract with key `hash` (created in this transaction or stored), if any. */
  activeByKey(hash: string): string | undefined {
    const local = this.ptx.keys.get(hash);
    if (local !== undefined) return local ?? undefined;
    const stored = this.host.contractByKey(hash);
    return stored !== undefined && !this.ptx.consumed.has(stored) ? stored : undefined;
  }

  /**
   * The contract `cid` as a contract of template `tpl` (same qualified name; another package version is imported with
   * the upgrade rules and its contract info re-checked). `k` receives it.
   */
  fetchAs(m: Machine, cid: string, tpl: QualifiedName, k: (c: ContractInfo) => void): void {
    if (this.ptx.consumed.has(cid))
      throw new EngineError('ContractNotActive', `Update failed due to fetch of an inactive contract ${cid} (${qnText(tpl)}).`, {
        contractId: cid,
        templateId: qnText(tpl),
      });
    const local = this.ptx.local.get(cid);
    if (local) {
      if (qualified(local.templateId) !== qualified(tpl)) this.wronglyTyped(cid, tpl, local.templateId);
      if (local.templateId.packageId === tpl.packageId) {
        k(local);
        return;
      }
      this.importAs(m, cid, local.packageName, local.templateId.packageId, toJson(local.arg), local, tpl, k);
      return;
    }
    const stored = this.host.activeContract(cid);
    const visible =
      stored && ([...stored.signatories, ...stored.observers].some((p) => this.host.readers.has(p)) || this.host.disclosed.has(cid));
    if (!stored || !visible) throw new EngineError('ContractNotFound', `Contract could not be found with id ${cid}`, { contractId: cid });
    if (stored.qualifiedName !== qualified(tpl))
      this.wronglyTyped(cid, tpl, { packageId: stored.packageId, module: stored.qualifiedName, name: '' });
    this.host.useSynchronizer(stored.synchronizerId);
    const known = { signatories: stored.signatories, observers: stored.observers.filter((p) => !stored.signatories.includes(p)) };
    this.importAs(m, cid, stored.packageName, stored.packageId, stored.argument, known, tpl, (c) => {
      this.ptx.useInput(c);
      k(c);
    });
  }

  private wronglyTyped(cid: string, expected: QualifiedName, actual: QualifiedName): never {
    const a = actual.name === '' ? `${actual.packageId}:${actual.module}` : qnText(actual);
    throw new EngineError('WronglyTypedContract', `Contract ${cid} was expected to be of type ${qnText(expected)} but is of type ${a}`, {
      contractId: cid,
      expected: qnText(expected),
      actual: a,
    });
  }

  private importAs(
    m: Machine,
    cid: string,
    packageName: string,
    srcPackageId: string,
    argument: Parameters<typeof fromJson>[2],
    known: { signatories: string[]; observers: string[] },
    tpl: QualifiedName,
    k: (c: ContractInfo) => void,
  ): void {
    const cacheKey = `${cid}@${tpl.packageId}`;
    const cached = this.imported.get(cacheKey);
    if (cached) {
      k(cached);
      return;
    }
    const t = this.defs.template(tpl);
    if (t.pkg.name !== packageName)
      this.wronglyTyped(cid, tpl, { packageId: srcPackageId, module: `${packageName}:${qualified(tpl)}`, name: '' });
    let arg: VRecord;
    try {
      arg = fromJson(this.defs, tyCon(tpl), argument, '', { upgrade: srcPackageId !== tpl.packageId }) as VRecord;
    } catch (e) {
      // Canton: INTERPRETATION_UPGRADE_ERROR_TRANSLATION_FAILED, "Translation of contract … fails. Reason: …"
      const reason = e instanceof DowngradeError ? e.reason : (e as Error).message;
      const expected = e instanceof DowngradeError ? e.expectedType : qualified(tpl);
      throw new EngineError(
        'UpgradeTranslationFailed',
        `Translation of contract ${cid} to a value of type ${qualified(tpl)}@${tpl.packageId.slice(0, 8)} fails. ` +
          `Reason: Type-checking fails  ${reason}  Expected type: ${expected}`,
        { contractId: cid, srcTemplateId: `${srcPackageId}:${qualified(tpl)}`, dstTemplateId: qnText(tpl) },
      );
    }
    this.contractInfo(
      m,
      t,
      cid,
      arg,
      (c) => {
        // smart-contract upgrading: the contract's signatories and stakeholders must not change
        const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
        if (srcPackageId !== tpl.packageId && (!same(c.signatories, known.signatories) || !same(c.observers, known.observers)))
          throw new EngineError(
            'UpgradeValidationFailed',
            `Validation fails when trying to upgrade the contract ${cid} from ${srcPackageId}:${qualified(tpl)} to ${qnText(tpl)}. ` +
              `Verify that neither the signatories, nor the observers, nor the contract key, nor the key's maintainers have changed`,
            { contractId: cid },
          );
        const info = { ...c, signatories: known.signatories, observers: known.observers };
        this.imported.set(cacheKey, info);
        k(info);
      },
      false,
    );
  }

  /** `fetch @T cid`: at least one stakeholder must authorize. */
  fetch(m: Machine, tpl: QualifiedName, cid: string): void {
    this.fetchAs(m, cid, tpl, (c) => {
      this.checkFetchAuth(c, qnText(tpl));
      this.ptx.addFetch(c);
      m.val = c.arg;
    });
  }

  private checkFetchAuth(c: ContractInfo, what: string): void {
    const auth = this.ptx.authorizers;
    if (![...c.signatories, ...c.observers].some((p) => auth.has(p)))
      this.authError(`fetch ${what} (${c.cid})`, [...c.signatories, ...c.observers]);
  }

  /** The template an interface value of contract `cid` has: the preferred version of its package. */
  resolveForInterface(m: Machine, cid: string, iface: QualifiedName, k: (c: ContractInfo, t: TemplateRt) => void): void {
    const local = this.ptx.local.get(cid);
    const stored = local ? undefined : this.host.activeContract(cid);
    const src = local
      ? { packageName: local.packageName, packageId: local.templateId.packageId, qn: local.templateId }
      : stored
        ? {
            packageName: stored.packageName,
            packageId: stored.packageId,
            qn: {
              packageId: stored.packageId,
              module: stored.qualifiedName.split(':')[0] ?? '',
              name: stored.qualifiedName.split(':')[1] ?? '',
            },
          }
        : undefined;
    if (!src) {
      if (this.ptx.consumed.has(cid))
        throw new EngineError('ContractNotActive', `Update failed due to fetch of an inactive contract ${cid}.`, { contractId: cid });
      throw new EngineError('ContractNotFound', `Contract could not be found with id ${cid}`, { contractId: cid });
    }
    const pkg = this.host.preferredPackage(src.packageName) ?? src.packageId;
    const tpl = { ...src.qn, packageId: this.defs.hasTemplate({ ...src.qn, packageId: pkg }) ? pkg : src.packageId };
    const t = this.defs.template(tpl);
    if (!t.instance(iface))
      throw new EngineError(
        'ContractDoesNotImplementInterface',
        `Contract ${cid} (template ${t.id}) does not implement interface ${qnText(iface)}`,
        {
          contractId: cid,
          templateId: t.id,
          interfaceId: qnText(iface),
        },
      );
    this.fetchAs(m, cid, tpl, (c) => k(c, t));
  }

  fetchInterface(m: Machine, iface: QualifiedName, cid: string): void {
    this.resolveForInterface(m, cid, iface, (c) => {
      this.checkFetchAuth(c, qnText(iface));
      this.ptx.addFetch(c, iface);
      m.val = new VAny(tyCon(c.templateId), c.arg);
    });
  }

  /** `exercise @T ch cid arg`, or through interface `iface` (then `this` is the interface value). */
  exercise(m: Machine, tpl: QualifiedName, choice: string, cid: string, arg: V, iface?: QualifiedName, guard?: V): void {
    const run = (c: ContractInfo): void => {
      const ch = iface ? this.defs.iface(iface).choice(choice) : this.defs.template(tpl).choice(choice);
      if (!ch) throw new EngineError('UnknownDefinition', `Unknown choice ${choice} of ${qnText(iface ?? tpl)}`, { choice });
      const self: V = iface ? new VAny(tyCon(c.templateId), c.arg) : c.arg;
      const afterGuard = (ok: V): void => {
        if (ok !== true) throw new EngineError('ChoiceGuardFailed', `Choice guard failed for choice ${choice} on contract ${cid}`);
        m.callThen(ch.controllers, [self, arg], (ctrls) => {
          const actors = sortedUnique(parties(ctrls));
          const withObservers = (obs: V): void => {
            const choiceObservers = sortedUnique(parties(obs));
            const withAuthorizers = (explicit: string[] | undefined): void =>
              this.begin(m, c, tpl, iface, ch, actors, choiceObservers, explicit, arg, self);
            if (ch.authorizers) m.callThen(ch.authorizers, [self, arg], (a) => withAuthorizers(sortedUnique(parties(a))));
            else withAuthorizers(undefined);
          };
          if (ch.observers) m.callThen(ch.observers, [self, arg], withObservers);
          else withObservers(NIL);
        });
      };
      if (guard !== undefined) m.callThen(guard, [self], afterGuard);
      else afterGuard(true);
    };
    if (iface) this.resolveForInterface(m, cid, iface, (c) => run(c));
    else this.fetchAs(m, cid, tpl, run);
  }

  private begin(
    m: Machine,
    c: ContractInfo,
    tpl: QualifiedName,
    iface: QualifiedName | undefined,
    ch: NonNullable<ReturnType<TemplateRt['choice']>>,
    actors: string[],
    choiceObservers: string[],
    explicitAuthorizers: string[] | undefined,
    arg: V,
    self: V,
  ): void {
    const what = `exercise ${qnText(iface ?? c.templateId)}:${ch.def.name} (${c.cid})`;
    if (actors.length === 0) throw new EngineError('FailedAuthorization', `${what}: a choice must have at least one controller`);
    if (explicitAuthorizers && explicitAuthorizers.length === 0) throw new EngineError('FailedAuthorization', `${what}: no authorizers`);
    const required = sortedUnique([...actors, ...(explicitAuthorizers ?? [])]);
    const auth = this.ptx.authorizers;
    if (!required.every((p) => auth.has(p))) this.authError(what, required);
    this.requireKnown([...actors, ...choiceObservers]);
    const node: ExerciseNode = {
      kind: 'exercise',
      c,
      templateId: iface ? c.templateId : tpl,
      choice: ch.def.name,
      consuming: ch.def.consuming,
      actors,
      choiceObservers,
      argJson: toJson(arg),
      result: null,
      children: [],
    };
    if (iface) node.iface = iface;
    this.ptx.beginExercise(node, new Set(explicitAuthorizers ?? [...c.signatories, ...actors]));
    m.callThen(ch.body, [new VContractId(c.cid), self, arg], (u) => {
      m.callThen(u, [TOKEN], (result) => {
        this.ptx.endExercise(toJson(result));
        m.val = result;
      });
    });
  }

  /** `exercise_by_key`, `fetch_by_key`, `lookup_by_key`: the contract with the key, if visible. */
  byKey(m: Machine, tpl: QualifiedName, key: V, k: (cid: string | undefined) => void): void {
    const t = this.defs.template(tpl);
    if (!t.key) throw new EngineError('Internal', `Template ${t.id} has no key`);
    const keyFns = t.key;
    m.callThen(keyFns.maintainers, [key], (mt) => {
      const maintainers = sortedUnique(parties(mt));
      if (maintainers.length === 0) throw new EngineError('FetchEmptyContractKeyMaintainers', `Key of ${t.id} has no maintainers`);
      const hash = this.host.keyHash(t.pkg.name, qualified(tpl), toJson(key));
      const cid = this.activeByKey(hash);
      if (cid !== undefined && !this.ptx.local.has(cid)) {
        const stored = this.host.activeContract(cid);
        if (!stored || ![...stored.signatories, ...stored.observers].some((p) => this.host.readers.has(p))) {
          k(undefined);
          return;
        }
      }
      k(cid);
    });
  }
}
