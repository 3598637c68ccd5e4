/**
 * The ledger builtins the compiler plugs into update expressions (`UpdateOps`): each takes its arguments and then
 * the token, and runs the operation on the machine's ledger session.
 */
import type { QualifiedName } from '../../../../daml-lf/ast/ast.js';
import { templateOfAny, type UpdateOps } from '../compile-update.js';
import { qnText } from '../defs.js';
import { EngineError } from '../errors.js';
import type { Machine } from '../machine.js';
import { NONE, PENDING, VContractId, VStruct, VSome, VTimestamp, VBuiltin, type V, type VAny, type VRecord } from '../value.js';
import type { LedgerSession } from './session.js';

function session(m: Machine): LedgerSession {
  const s = m.host as LedgerSession | undefined;
  if (!s) throw new EngineError('Internal', 'ledger operations need a submission');
  return s;
}

const cid = (v: V): string => (v as VContractId).cid;

const op = (name: string, arity: number, run: (m: Machine, args: V[]) => void): VBuiltin =>
  new VBuiltin(name, arity, (m: Machine, args: V[]) => {
    run(m, args);
    return PENDING;
  });

export class LedgerOps implements UpdateOps {
  private readonly cache = new Map<string, VBuiltin>();

  private memo(key: string, make: () => VBuiltin): VBuiltin {
    let b = this.cache.get(key);
    if (!b) {
      b = make();
      this.cache.set(key, b);
    }
    return b;
  }

  create(t: QualifiedName): V {
    return this.memo(`create ${qnText(t)}`, () => op(`create ${qnText(t)}`, 2, (m, [arg]) => session(m).create(m, t, arg as VRecord)));
  }

  createInterface(i: QualifiedName): V {
    return this.memo(`create_interface ${qnText(i)}`, () =>
      op(`create_interface ${qnText(i)}`, 2, (m, [v]) => session(m).create(m, templateOfAny(v as VAny), (v as VAny).value as VRecord)),
    );
  }

  exercise(t: QualifiedName, choice: string): V {
    return this.memo(`exercise ${qnText(t)} ${choice}`, () =>
      op(`exercise ${qnText(t)}:${choice}`, 3, (m, [c, arg]) => session(m).exercise(m, t, choice, cid(c as V), arg as V)),
    );
  }

  exerciseInterface(i: QualifiedName, choice: string, withGuard: boolean): V {
    return this.memo(`exercise_interface ${qnText(i)} ${choice} ${withGuard}`, () =>
      op(`exercise_interface ${qnText(i)}:${choice}`, withGuard ? 4 : 3, (m, [c, arg, guard]) =>
        session(m).exercise(m, i, choice, cid(c as V), arg as V, i, withGuard ? guard : undefined),
      ),
    );
  }

  exerciseByKey(t: QualifiedName, choice: string): V {
    return this.memo(`exercise_by_key ${qnText(t)} ${choice}`, () =>
      op(`exercise_by_key ${qnText(t)}:${choice}`, 3, (m, [key, arg]) => {
        const s = session(m);
        s.byKey(m, t, key as V, (found) => {
          if (found === undefined)
            throw new EngineError('ContractKeyNotFound', `Couldn't find contract key for template ${qnText(t)}`, { templateId: qnText(t) });
          s.exercise(m, t, choice, found, arg as V);
        });
      }),
    );
  }

  fetch(t: QualifiedName): V {
    return this.memo(`fetch ${qnText(t)}`, () => op(`fetch ${qnText(t)}`, 2, (m, [c]) => session(m).fetch(m, t, cid(c as V))));
  }

  fetchInterface(i: QualifiedName): V {
    return this.memo(`fetch_interface ${qnText(i)}`, () =>
      op(`fetch_interface ${qnText(i)}`, 2, (m, [c]) => session(m).fetchInterface(m, i, cid(c as V))),
    );
  }

  byKey(kind: 'lookupByKey' | 'fetchByKey' | 'queryNByKey', t: QualifiedName): V {
    return this.memo(`${kind} ${qnText(t)}`, () =>
      op(`${kind} ${qnText(t)}`, 2, (m, [key]) => {
        const s = session(m);
        if (kind === 'queryNByKey') throw new EngineError('UnknownDefinition', 'query_n_by_key (LF 2.dev) is not supported');
        s.byKey(m, t, key as V, (found) => {
          if (kind === 'lookupByKey') {
            m.val = found === undefined ? NONE : new VSome(new VContractId(found));
            return;
          }
          if (found === undefined)
            throw new EngineError('ContractKeyNotFound', `Couldn't find contract key for template ${qnText(t)}`, { templateId: qnText(t) });
          s.fetchAs(m, found, t, (c) => {
            m.val = new VStruct(['contract', 'contractId'], [c.arg, new VContractId(found)]);
          });
        });
      }),
    );
  }

  getTime(): V {
    return this.memo('get_time', () =>
      op('get_time', 1, (m) => {
        m.val = new VTimestamp(session(m).host.ledgerTime);
      }),
    );
  }

  ledgerTimeLt(): V {
    return this.memo('ledger_time_lt', () =>
      op('ledger_time_lt', 2, (m, [time]) => {
        m.val = session(m).host.ledgerTime < (time as VTimestamp).micros;
      }),
    );
  }
}
