/**
 * A party's amulet holdings: its (locked) amulets, their value after holding fees at the open round, balances, input
 * selection for payments, and the DevNet tap that mints new amulet.
 */
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { WalletStore } from './app-store.js';
import { effectiveAmount, fmt, MAX_TRANSFER_INPUTS, num } from './coin.js';
import type { DsoContracts } from './dso-contracts.js';
import type { WalletLedger } from './ledger-access.js';
import { args, T } from './names.js';
import { parseFloatStrict, WalletError } from './types.js';
import type { WalletUsers } from './users.js';

type Position = { c: ContractRow; effective: bigint; fee: bigint };

export class Holdings {
  constructor(
    private readonly ledger: WalletLedger,
    private readonly dso: DsoContracts,
    private readonly users: WalletUsers,
    private readonly store: WalletStore,
  ) {}

  amulets(party: string): ContractRow[] {
    return this.ledger.contracts(party, T.amulet).filter((c) => args(c).owner === party);
  }

  lockedAmulets(party: string): ContractRow[] {
    return this.ledger.contracts(party, T.locked).filter((c) => args(c).owner === party);
  }

  positions(party: string): { round: bigint; amulets: Position[]; locked: Position[] } {
    const round = this.dso.openRound().round;
    const pos = (c: ContractRow) => ({ c, ...effectiveAmount(c.node.createArgument as LfRecord, round) });
    return { round, amulets: this.amulets(party).map(pos), locked: this.lockedAmulets(party).map(pos) };
  }

  balance(party: string): { round: bigint; unlocked: bigint; locked: bigint; fees: bigint } {
    const p = this.positions(party);
    const sum = (xs: { effective: bigint }[]) => xs.reduce((s, x) => s + x.effective, 0n);
    const fees = [...p.amulets, ...p.locked].reduce((s, x) => s + x.fee, 0n);
    return { round: p.round, unlocked: sum(p.amulets), locked: sum(p.locked), fees };
  }

  /**
   * Picks input amulets (largest first) worth at least `amount`; at most 100 (`MAX_TRANSFER_INPUTS`).
   * Traffic cost of a transfer grows with its inputs (see `trafficCostBytes`).
   */
  selectInputs(party: string, amount: bigint): string[] {
    const round = this.dso.openRound().round;
    const all = this.amulets(party)
      .map((c) => ({ c, e: effectiveAmount(c.node.createArgument as LfRecord, round).effective }))
      .sort((a, b) => (b.e > a.e ? 1 : b.e < a.e ? -1 : 0));
    const picked: string[] = [];
    let total = 0n;
    for (const x of all) {
      if (total >= amount) break;
      if (picked.length === MAX_TRANSFER_INPUTS)
        throw new WalletError(
          400,
          `Insufficient funds within ${MAX_TRANSFER_INPUTS} input holdings (worth ${fmt(total)}): merge holdings first`,
        );
      picked.push(x.c.contractId);
      total += x.e;
    }
    if (total < amount) throw new WalletError(400, `Insufficient funds: balance ${fmt(total)}, needed ${fmt(amount)}`);
    return picked;
  }

  /** DevNet tap: the DSO mints `amount` to the user's party. Returns the new amulet's contract id. */
  tap(user: string, amount: string): string {
    const party = this.users.partyOf(user);
    if (parseFloatStrict(amount) === undefined || num(amount) <= 0n)
      throw new WalletError(400, `Invalid amount '${amount}': a positive decimal is required`);
    const rules = this.dso.rules();
    const r = this.ledger.exercise([party, this.ledger.dso], T.rules, rules, 'AmuletRules_DevNet_Tap', {
      receiver: party,
      amount,
      openRound: this.dso.openRound().cid,
    });
    const cid = (r.result as { amuletSum: { amulet: string } }).amuletSum.amulet;
    this.store.log(
      [party],
      {
        transaction_type: 'balance_change',
        choice: 'AmuletRules_DevNet_Tap',
        template: T.rules,
        amulet_operation: 'tap',
        event_id: r.res.updateId,
        receivers: [{ party, amount: fmt(num(amount)) }],
      },
      r.res,
    );
    return cid;
  }
}
