/**
 * Ledger semantics of the engine's session on a hand-written package (spec "Update interpretation"): a handled
 * exception rolls back the creates and archives of its try block (EvUpdTryCatchThrow: the partial transaction returns
 * to the checkpoint), an unhandled one fails the submission, the choice body runs with signatories ∪ controllers as
 * authorizers, and the precondition is checked on create.
 */
import { describe, expect, it } from 'vitest';
import type { DefTemplate, Expr, PackageAst, Type } from '../../../src/daml-lf/ast/ast.js';
import { LfEngine } from '../../../src/simulator/engine/lf/engine.js';
import { EngineError, FailureStatusError } from '../../../src/simulator/engine/lf/errors.js';
import type { LedgerHost } from '../../../src/simulator/engine/lf/ledger/host.js';
import { LedgerOps } from '../../../src/simulator/engine/lf/ledger/ops.js';
import { LedgerSession } from '../../../src/simulator/engine/lf/ledger/session.js';
import { UNIT as UNIT_V, type V, type VRecord } from '../../../src/simulator/engine/lf/value.js';
import type { Machine } from '../../../src/simulator/engine/lf/machine.js';
import { fromJson } from '../../../src/simulator/engine/lf/convert.js';
import { INT_T, PKG, UNIT, UNIT_T, call, con, i64, qn, testPackage, text, upd, v } from './lf-helpers.js';

const PARTY_T: Type = { kind: 'prim', prim: 'Party', args: [] };
const T = qn('M', 'T');
const tT: Type = con('T');
const proj = (field: string, record: Expr): Expr => ({ tag: 'recProj', type: { tycon: T, args: [] }, field, record });
const mkT = (owner: Expr, n: Expr): Expr => ({
  tag: 'recCon',
  type: { tycon: T, args: [] },
  fields: [
    { name: 'owner', expr: owner },
    { name: 'n', expr: n },
  ],
});
const partyList = (p: Expr): Expr => ({ tag: 'cons', type: PARTY_T, front: [p], tail: { tag: 'nil', type: PARTY_T } });
const create = (e: Expr): Expr => upd({ tag: 'create', template: T, expr: e });
const boom: Expr = upd({
  tag: 'embedExpr',
  type: UNIT_T,
  body: {
    tag: 'throw',
    returnType: UNIT_T,
    exceptionType: con('E'),
    expr: { tag: 'recCon', type: { tycon: qn('M', 'E'), args: [] }, fields: [{ name: 'msg', expr: text('boom') }] },
  },
});
const block = (bindings: [string, Expr][], body: Expr): Expr =>
  upd({ tag: 'block', bindings: bindings.map(([name, bound]) => ({ name, type: UNIT_T, bound })), body });
const pure = (e: Expr): Expr => upd({ tag: 'pure', type: UNIT_T, expr: e });
const tryCatch = (tryExpr: Expr, handler: Expr | undefined): Expr =>
  upd({
    tag: 'tryCatch',
    returnType: UNIT_T,
    tryExpr,
    binder: 'x',
    catchExpr: handler ? { tag: 'some', type: UNIT_T, value: handler } : { tag: 'none', type: UNIT_T },
  });
const archiveSelf = (self: string): Expr => upd({ tag: 'exercise', template: T, choice: 'Archive', cid: v(self), arg: UNIT });

/** Template T {owner: Party, n: Int64}: signatory owner, ensure n >= 0, choices Archive and Work (see each test). */
function pkg(workBody: Expr): PackageAst {
  const p = testPackage();
  const m = p.modules[0];
  if (!m) throw new Error('no module');
  m.dataTypes.push({
    name: 'T',
    params: [],
    serializable: true,
    cons: {
      kind: 'record',
      fields: [
        { name: 'owner', type: PARTY_T },
        { name: 'n', type: INT_T },
      ],
    },
  });
  const choice = (name: string, consuming: boolean, update: Expr) => ({
    name,
    consuming,
    controllers: partyList(proj('owner', v('this'))),
    argBinder: { name: 'arg', type: UNIT_T },
    returnType: UNIT_T,
    update,
    selfBinder: 'self',
  });
  const tpl: DefTemplate = {
    name: 'T',
    param: 'this',
    precond: call('GREATER_EQ', proj('n', v('this')), i64(0)),
    signatories: partyList(proj('owner', v('this'))),
    observers: { tag: 'nil', type: PARTY_T },
    choices: [choice('Archive', true, pure(UNIT)), choice('Work', false, workBody)],
    implements: [],
  };
  m.templates.push(tpl);
  return p;
}

function session(p: PackageAst, stored: Record<string, { owner: string; n: number }> = {}) {
  const engine = new LfEngine({ get: (id) => (id === PKG ? p : undefined) }, new LedgerOps());
  let next = 0;
  const host: LedgerHost = {
    activeContract: (cid) => {
      const s = stored[cid];
      return s
        ? {
            contractId: cid,
            packageId: PKG,
            packageName: p.name,
            qualifiedName: 'M:T',
            argument: { owner: s.owner, n: String(s.n) },
            signatories: [s.owner],
            observers: [],
            synchronizerId: 'sync',
          }
        : undefined;
    },
    contractByKey: () => undefined,
    partyKnown: () => true,
    ledgerTime: 0n,
    readers: new Set(['alice::1220']),
    disclosed: new Set(),
    preferredPackage: () => PKG,
    useSynchronizer: () => undefined,
    contractIdFor: () => `00${(next++).toString(16).padStart(66, '0')}`,
    keyHash: () => 'hash',
  };
  const s = new LedgerSession(engine.defs, host, ['alice::1220']);
  const m = engine.machine();
  m.host = s;
  const run = (start: (m: Machine) => void): V =>
    engine.run(m, () => {
      m.ctrl = null;
      start(m);
      return m.run();
    });
  const arg = (json: unknown) => fromJson(engine.defs, tT, json, '') as VRecord;
  return { s, run, arg };
}

const ALICE = 'alice::1220';
const kinds = (s: LedgerSession): string[] =>
  s.ptx.roots.flatMap((r) => (r.kind === 'exercise' ? [r.kind, ...r.children.map((c) => `${c.kind}:${c.c.cid}`)] : [r.kind]));

describe('Daml-LF engine session: try-catch rollback, authorization, precondition', () => {
  it('EvUpdTryCatchThrow: a handled exception rolls back the create of its try block; later creates stay', () => {
    const body = block(
      [['_', tryCatch(block([['c', create(mkT(proj('owner', v('this')), i64(1)))]], boom), pure(UNIT))]],
      block([['d', create(mkT(proj('owner', v('this')), i64(2)))]], pure(UNIT)),
    );
    const { s, run } = session(pkg(body), { cid0: { owner: ALICE, n: 0 } });
    run((m) => s.exercise(m, T, 'Work', 'cid0', UNIT_V));
    const work = s.ptx.roots[0];
    expect(work?.kind).toBe('exercise');
    const created = work?.kind === 'exercise' ? work.children.filter((c) => c.kind === 'create') : [];
    expect(created).toHaveLength(1);
    expect(created[0]?.c.arg.fields[1]).toBe(2n);
    expect([...s.ptx.local.keys()]).toHaveLength(1);
  });

  it('EvUpdTryCatchThrow: the archive of a consuming exercise in the try block is undone (the contract stays active)', () => {
    const body = block([['_', tryCatch(block([['a', archiveSelf('self')]], boom), pure(UNIT))]], pure(UNIT));
    const { s, run } = session(pkg(body), { cid0: { owner: ALICE, n: 0 } });
    run((m) => s.exercise(m, T, 'Work', 'cid0', UNIT_V));
    expect(s.ptx.consumed.has('cid0')).toBe(false);
    expect(s.ptx.archivedInputs).toEqual([]);
    // without the handler the exception escapes: UNHANDLED_EXCEPTION/M:E
    const { s: s2, run: run2 } = session(pkg(block([['a', archiveSelf('self')]], boom)), { cid0: { owner: ALICE, n: 0 } });
    expect(() => run2((m) => s2.exercise(m, T, 'Work', 'cid0', UNIT_V))).toThrow(FailureStatusError);
  });

  it('create checks the precondition (TemplatePreconditionViolated) and the signatories’ authorization', () => {
    const { s, run, arg } = session(pkg(pure(UNIT)));
    expect(() => run((m) => s.create(m, T, arg({ owner: ALICE, n: '-1' })))).toThrow(
      expect.objectContaining({ kind: 'TemplatePreconditionViolated' }) as Error,
    );
    let err: unknown;
    try {
      run((m) => s.create(m, T, arg({ owner: 'bob::1220', n: '1' })));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).kind).toBe('FailedAuthorization');
    run((m) => s.create(m, T, arg({ owner: ALICE, n: '1' })));
    expect(kinds(s)).toEqual(['create']);
  });
});
