/**
 * Update typing (UpdPure … UpdTryCatch). In Daml-LF 2 the by-key updates carry no key: `'lookup_by_key' @T` and
 * `'fetch_by_key' @T` are functions of the key (`τₖ → 'Update' …`), as the engine evaluates them.
 */
import type { QualifiedName, Type, Update } from '../ast/ast.js';
import type { CheckerApi, Ctx } from './ctx.js';
import { fail } from './error.js';
import { T, show } from './types.js';
import { qnText } from './world.js';

const cid = (q: QualifiedName): Type => T.contractId(T.con(q));

export function checkUpdate(c: CheckerApi, u: Update, ctx: Ctx): Type {
  switch (u.tag) {
    case 'pure': {
      const t = c.type(u.type, ctx, 'UpdPure');
      c.check(u.expr, t, ctx, 'UpdPure', 'the value');
      return T.update(t);
    }
    case 'block': {
      const go = (i: number): Type => {
        const b = u.bindings[i];
        if (!b) {
          const t = c.synth(u.body, ctx);
          if (t.kind !== 'prim' || t.prim !== 'Update') fail('UpdBlock', `the body has type ${show(t)}, not an update`);
          return t;
        }
        const t = c.type(b.type, ctx, 'UpdBlock');
        c.check(b.bound, T.update(t), ctx, 'UpdBlock', `the update bound to ${b.name}`);
        return ctx.withVar(b.name, t, () => go(i + 1));
      };
      return go(0);
    }
    case 'create':
      c.world.template(u.template, 'UpdCreate');
      c.check(u.expr, T.con(u.template), ctx, 'UpdCreate', 'the contract');
      return T.update(cid(u.template));
    case 'createInterface':
      c.world.iface(u.iface, 'UpdCreateInterface');
      c.check(u.expr, T.con(u.iface), ctx, 'UpdCreateInterface', 'the contract');
      return T.update(cid(u.iface));
    case 'exercise': {
      const ch = c.world.templateChoice(u.template, u.choice, 'UpdExercise');
      c.check(u.cid, cid(u.template), ctx, 'UpdExercise', 'the contract id');
      c.check(u.arg, c.norm.norm(ch.argBinder.type), ctx, 'UpdExercise', 'the choice argument');
      return T.update(c.norm.norm(ch.returnType));
    }
    case 'exerciseInterface': {
      const ch = c.world.interfaceChoice(u.iface, u.choice, 'UpdExerciseInterface');
      c.check(u.cid, cid(u.iface), ctx, 'UpdExerciseInterface', 'the contract id');
      c.check(u.arg, c.norm.norm(ch.argBinder.type), ctx, 'UpdExerciseInterface', 'the choice argument');
      if (u.guard) c.check(u.guard, T.arrow(T.con(u.iface), T.bool), ctx, 'UpdExerciseInterface', 'the guard');
      return T.update(c.norm.norm(ch.returnType));
    }
    case 'exerciseByKey': {
      const ch = c.world.templateChoice(u.template, u.choice, 'UpdExerciseByKey');
      c.check(u.key, keyType(c, u.template, 'UpdExerciseByKey'), ctx, 'UpdExerciseByKey', 'the key');
      c.check(u.arg, c.norm.norm(ch.argBinder.type), ctx, 'UpdExerciseByKey', 'the choice argument');
      return T.update(c.norm.norm(ch.returnType));
    }
    case 'fetch':
      c.world.template(u.template, 'UpdFetch');
      c.check(u.cid, cid(u.template), ctx, 'UpdFetch', 'the contract id');
      return T.update(T.con(u.template));
    case 'fetchInterface':
      c.world.iface(u.iface, 'UpdFetchInterface');
      c.check(u.cid, cid(u.iface), ctx, 'UpdFetchInterface', 'the contract id');
      return T.update(T.con(u.iface));
    case 'getTime':
      return T.update(T.timestamp);
    case 'lookupByKey':
      return T.arrow(keyType(c, u.template, 'UpdLookupByKey'), T.update(T.optional(cid(u.template))));
    case 'fetchByKey':
      return T.arrow(
        keyType(c, u.template, 'UpdFetchByKey'),
        T.update(
          c.norm.norm({
            kind: 'struct',
            fields: [
              { name: 'contract', type: T.con(u.template) },
              { name: 'contractId', type: cid(u.template) },
            ],
          }),
        ),
      );
    case 'queryNByKey':
      return fail('UpdQueryNByKey', `query_n_by_key (LF 2.dev) of ${qnText(u.template)} is not supported`);
    case 'embedExpr': {
      const t = c.type(u.type, ctx, 'UpdEmbedExpr');
      c.check(u.body, T.update(t), ctx, 'UpdEmbedExpr', 'the embedded update');
      return T.update(t);
    }
    case 'tryCatch': {
      const t = c.type(u.returnType, ctx, 'UpdTryCatch');
      c.check(u.tryExpr, T.update(t), ctx, 'UpdTryCatch', 'the try block');
      ctx.withVar(u.binder, T.anyException, () => c.check(u.catchExpr, T.optional(T.update(t)), ctx, 'UpdTryCatch', 'the handler'));
      return T.update(t);
    }
    case 'ledgerTimeLt':
      c.check(u.expr, T.timestamp, ctx, 'UpdLedgerTimeLt', 'the time');
      return T.update(T.bool);
  }
}

function keyType(c: CheckerApi, q: QualifiedName, rule: string): Type {
  const k = c.world.template(q, rule).key ?? fail(rule, `template ${qnText(q)} has no key`);
  return c.norm.norm(k.type);
}
