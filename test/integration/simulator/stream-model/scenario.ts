/**
 * Generated scenarios: a seeded random walk over the demo package — creates, consuming and
 * non-consuming exercises, interface choices, transient contracts, multi-command and multi-submitter
 * transactions, witnesses that are not stakeholders (no divulgence), reassignments between the two
 * synchronizers, party allocations (topology events) and rejected commands.
 */
import type { Args, TemplateName } from './daml.js';
import { ASSET, UNIT, numeric, signatories, stakeholders, str, toUnits } from './daml.js';
import type { MContract, ModelLedger } from './ledger.js';
import type { Prng } from './prng.js';
import type { Submitter } from './submit.js';
import { isUsable, syncOf, templateRef } from './submit.js';

export interface Cast {
  /** parties that take part in contracts */
  core: string[];
  /** a party that never takes part in anything (sees only its own topology event) */
  nobody: string;
}

const CURRENCIES = ['USD', 'EUR', 'CHF'];

type Step =
  | 'createIous'
  | 'proposal'
  | 'accept'
  | 'rejectOrWithdraw'
  | 'account'
  | 'relabel'
  | 'close'
  | 'ping'
  | 'transfer'
  | 'split'
  | 'merge'
  | 'addObserver'
  | 'describe'
  | 'assetDescribe'
  | 'transient'
  | 'createAndDescribe'
  | 'archive'
  | 'multi'
  | 'unassign'
  | 'assign'
  | 'allocate'
  | 'reject';

const WEIGHTS: Record<Step, number> = {
  createIous: 14,
  proposal: 4,
  accept: 3,
  rejectOrWithdraw: 2,
  account: 4,
  relabel: 2,
  close: 1,
  ping: 3,
  transfer: 6,
  split: 4,
  merge: 2,
  addObserver: 3,
  describe: 3,
  assetDescribe: 5,
  transient: 3,
  createAndDescribe: 2,
  archive: 2,
  multi: 3,
  unassign: 3,
  assign: 4,
  allocate: 1,
  reject: 1,
};

const exercise = (c: MContract, choice: string, choiceArgument: Args, templateId = templateRef(c)) => ({
  ExerciseCommand: { templateId, contractId: c.cid, choice, choiceArgument },
});

export class ScenarioRunner {
  private accountSeq = 0;
  private lateSeq = 0;
  readonly counts: Record<string, number> = {};

  constructor(
    private readonly rng: Prng,
    private readonly sub: Submitter,
    private readonly cast: Cast,
  ) {}

  private get ledger(): ModelLedger {
    return this.sub.ledger;
  }

  /** Parties that may take part: the core and those allocated during the scenario. */
  private actors(): string[] {
    return this.ledger.parties.filter((p) => p !== this.cast.nobody);
  }

  private usable(t?: TemplateName): MContract[] {
    const out: MContract[] = [];
    for (const c of this.ledger.contracts.values()) if (isUsable(c) && (t === undefined || c.template === t)) out.push(c);
    return out;
  }

  private wf(): { workflowId?: string } {
    return this.rng.chance(0.3) ? { workflowId: `wf-${this.rng.int(1, 5)}` } : {};
  }

  private iouArgs(issuer: string, owner: string): Args {
    const whole = this.rng.int(2, 400);
    // sometimes a short form ("12.5"): the ledger normalises Numeric 10
    const amount = this.rng.chance(0.3) ? `${whole}.5` : String(whole);
    const observers = this.rng.subset(this.actors(), 0.15).slice(0, 2);
    return { issuer, owner, currency: this.rng.pick(CURRENCIES), amount, observers };
  }

  /** Normalised form of submitted Iou arguments (Numeric 10). */
  private static normalIou(a: Args): Args {
    return { ...a, amount: numeric(toUnits(str(a.amount))) };
  }

  /** Runs steps until the ledger holds `transactions` Daml transactions. */
  async run(transactions: number): Promise<void> {
    const txCount = (): number => [...this.ledger.updates.values()].filter((u) => u.kind === 'transaction').length;
    let guard = 0;
    while (txCount() < transactions) {
      if (++guard > transactions * 20) throw new Error('scenario makes no progress');
      const step = this.rng.weighted(WEIGHTS);
      if (await this.step(step)) this.counts[step] = (this.counts[step] ?? 0) + 1;
    }
  }

  /** One step; false when its preconditions do not hold (another is drawn). */
  private async step(step: Step): Promise<boolean> {
    const rng = this.rng;
    const sub = this.sub;
    const parties = this.actors();
    switch (step) {
      case 'createIous': {
        const n = rng.int(1, 3);
        const all = Array.from({ length: n }, () => this.iouArgs(rng.pick(parties), rng.pick(parties)));
        const actAs = [...new Set(all.map((a) => str(a.issuer)))];
        const privateSync = rng.chance(0.2);
        await sub.transaction(
          actAs,
          all.map((a) => ({ CreateCommand: { templateId: '#simulator-demo:Demo.Iou:Iou', createArguments: a } })),
          (tx) => all.forEach((a) => tx.create('Iou', ScenarioRunner.normalIou(a))),
          {
            ...(privateSync ? { sync: this.ledger.synchronizers[1], requestSync: true } : {}),
            ...this.wf(),
            ...(rng.chance(0.2) ? { submissionId: `sub-${rng.int(1, 1e9)}` } : {}),
          },
        );
        return true;
      }
      case 'proposal': {
        const issuer = rng.pick(parties);
        const owner = rng.pick(parties.filter((p) => p !== issuer));
        const a: Args = { issuer, owner, currency: rng.pick(CURRENCIES), amount: String(rng.int(1, 99)) };
        await sub.transaction(
          [issuer],
          [{ CreateCommand: { templateId: '#simulator-demo:Demo.Iou:IouProposal', createArguments: a } }],
          (tx) => tx.create('IouProposal', { ...a, amount: numeric(toUnits(str(a.amount))) }),
        );
        return true;
      }
      case 'accept':
      case 'rejectOrWithdraw': {
        const ps = this.usable('IouProposal');
        if (ps.length === 0) return false;
        const p = rng.pick(ps);
        const choice = step === 'accept' ? 'IouProposal_Accept' : rng.pick(['IouProposal_Reject', 'IouProposal_Withdraw']);
        const actor = str(choice === 'IouProposal_Withdraw' ? p.args.issuer : p.args.owner);
        await sub.transaction([actor], [exercise(p, choice, {})], (tx) => tx.exercise(p, choice, {}), { sync: syncOf(p), ...this.wf() });
        return true;
      }
      case 'account': {
        const bank = rng.pick(parties);
        const a: Args = {
          bank,
          holder: rng.pick(parties),
          accountId: `acc-${++this.accountSeq}`,
          label: rng.pick(['main', 'savings', 'naïve “quoted” ✓']),
        };
        await sub.transaction(
          [bank],
          [{ CreateCommand: { templateId: '#simulator-demo:Demo.Account:Account', createArguments: a } }],
          (tx) => tx.create('Account', a),
        );
        return true;
      }
      case 'relabel':
      case 'close':
      case 'ping': {
        const as = this.usable('Account');
        if (as.length === 0) return false;
        const c = rng.pick(as);
        const [choice, arg, actor]: [string, Args, string] =
          step === 'relabel'
            ? ['Account_Relabel', { newLabel: `label-${rng.int(1, 99)}` }, str(c.args.bank)]
            : step === 'close'
              ? ['Account_Close', {}, str(c.args.bank)]
              : ['Account_Ping', { message: `hi ${rng.int(1, 99)}` }, str(c.args.holder)];
        await sub.transaction([actor], [exercise(c, choice, arg)], (tx) => tx.exercise(c, choice, arg), { sync: syncOf(c), ...this.wf() });
        return true;
      }
      case 'transfer':
      case 'addObserver':
      case 'describe': {
        const ious = this.usable('Iou');
        if (ious.length === 0) return false;
        const c = rng.pick(ious);
        const [choice, arg]: [string, Args] =
          step === 'transfer'
            ? ['Iou_Transfer', { newOwner: rng.pick(parties) }]
            : step === 'addObserver'
              ? ['Iou_AddObserver', { newObserver: rng.pick(parties) }]
              : ['Iou_Describe', {}];
        await sub.transaction([str(c.args.owner)], [exercise(c, choice, arg)], (tx) => tx.exercise(c, choice, arg), {
          sync: syncOf(c),
          ...this.wf(),
        });
        return true;
      }
      case 'split': {
        const ious = this.usable('Iou').filter((c) => toUnits(str(c.args.amount)) >= 2n * UNIT);
        if (ious.length === 0) return false;
        const c = rng.pick(ious);
        const whole = Number(toUnits(str(c.args.amount)) / UNIT);
        const arg = { splitAmount: String(rng.int(1, whole - 1)) };
        await sub.transaction(
          [str(c.args.owner)],
          [exercise(c, 'Iou_Split', arg)],
          (tx) => tx.exercise(c, 'Iou_Split', { splitAmount: numeric(toUnits(arg.splitAmount)) }),
          {
            sync: syncOf(c),
          },
        );
        return true;
      }
      case 'merge': {
        const ious = this.usable('Iou');
        const key = (c: MContract): string => `${str(c.args.issuer)}|${str(c.args.owner)}|${str(c.args.currency)}|${syncOf(c)}`;
        const groups = new Map<string, MContract[]>();
        for (const c of ious) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
        const pairs = [...groups.values()].filter((g) => g.length >= 2);
        if (pairs.length === 0) return false;
        const [a, b] = rng.pick(pairs) as [MContract, MContract];
        await sub.transaction(
          [str(a.args.owner)],
          [exercise(a, 'Iou_Merge', { otherCid: b.cid })],
          (tx) => tx.exercise(a, 'Iou_Merge', { otherCid: b.cid }, [], undefined, b),
          {
            sync: syncOf(a),
          },
        );
        return true;
      }
      case 'assetDescribe': {
        const cs = [...this.usable('Iou'), ...this.usable('Account')];
        if (cs.length === 0) return false;
        const c = rng.pick(cs);
        // any stakeholder may view; when an observer views, the other observers are not witnesses
        const viewer = rng.pick(stakeholders(c.template, c.args));
        await sub.transaction(
          [viewer],
          [exercise(c, 'Asset_Describe', { viewer }, '#simulator-demo:Demo.Asset:Asset')],
          (tx) => tx.exercise(c, 'Asset_Describe', { viewer }, [], ASSET),
          {
            sync: syncOf(c),
            ...this.wf(),
          },
        );
        return true;
      }
      case 'transient':
      case 'createAndDescribe': {
        const issuer = rng.pick(parties);
        const owner = rng.pick(parties);
        const a = this.iouArgs(issuer, owner);
        const choice = step === 'transient' ? 'Archive' : 'Iou_Describe';
        const actAs = step === 'transient' ? [issuer] : [issuer, owner];
        await sub.transaction(
          actAs,
          [{ CreateAndExerciseCommand: { templateId: '#simulator-demo:Demo.Iou:Iou', createArguments: a, choice, choiceArgument: {} } }],
          (tx) => {
            const c = tx.create('Iou', ScenarioRunner.normalIou(a));
            tx.exercise(c, choice, {});
          },
          this.wf(),
        );
        return true;
      }
      case 'archive': {
        const cs = this.usable();
        if (cs.length === 0) return false;
        const c = rng.pick(cs);
        await sub.transaction(signatories(c.template, c.args), [exercise(c, 'Archive', {})], (tx) => tx.exercise(c, 'Archive', {}), {
          sync: syncOf(c),
        });
        return true;
      }
      case 'multi': {
        // a non-consuming exercise and a create in one transaction, submitted by two parties
        const ious = this.usable('Iou');
        if (ious.length === 0) return false;
        const c = rng.pick(ious);
        const owner = str(c.args.owner);
        const a = this.iouArgs(rng.pick(parties), rng.pick(parties));
        await sub.transaction(
          [owner, str(a.issuer)],
          [exercise(c, 'Iou_Describe', {}), { CreateCommand: { templateId: '#simulator-demo:Demo.Iou:Iou', createArguments: a } }],
          (tx) => {
            tx.exercise(c, 'Iou_Describe', {});
            tx.create('Iou', ScenarioRunner.normalIou(a));
          },
          { sync: syncOf(c), ...this.wf() },
        );
        return true;
      }
      case 'unassign': {
        const cs = this.usable();
        if (cs.length === 0) return false;
        const c = rng.pick(cs);
        await sub.reassign(c, 'unassign', rng.pick(signatories(c.template, c.args)), this.wf().workflowId);
        return true;
      }
      case 'assign': {
        const pending = [...this.ledger.contracts.values()].filter((c) => c.archived === undefined && c.moves.at(-1)?.type === 'unassign');
        if (pending.length === 0) return false;
        const c = rng.pick(pending);
        await sub.reassign(c, 'assign', rng.pick(stakeholders(c.template, c.args)), this.wf().workflowId);
        return true;
      }
      case 'allocate': {
        if (this.lateSeq >= 6) return false;
        await sub.allocate(`Late${++this.lateSeq}`, rng.chance(0.5) ? this.ledger.synchronizers[1] : undefined);
        return true;
      }
      case 'reject': {
        const gone = [...this.ledger.contracts.values()].filter((c) => c.archived !== undefined && c.template === 'Iou');
        if (gone.length === 0) return false;
        const c = rng.pick(gone);
        await sub.rejected([str(c.args.owner)], exercise(c, 'Iou_Describe', {}));
        return true;
      }
    }
  }
}
