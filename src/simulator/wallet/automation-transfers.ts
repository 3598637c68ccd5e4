/**
 * Automation tasks for transfers that run without their sender's wallet request (`automation.ts` runs them):
 * token-standard transfers past `executeBefore` are withdrawn by the (local) sender's wallet, and external parties'
 * TransferCommands are executed or expired by the DSO delegate.
 */
import type { SimContext } from '../context.js';
import type { LfRecord } from '../packages/types.js';
import { TOKEN_STANDARD } from '../packages/token-standard-types.js';
import { fmt, num } from './coin.js';
import { args, T } from './names.js';
import { TRANSFER_INSTRUCTION_QN } from './templates-transfer-instruction.js';
import { CTX, extraArgsWith } from './token-context.js';
import type { WalletCore } from './wallet-core.js';
import { asText } from '../lf-text.js';

/** The sender's wallet withdraws its token-standard transfers whose executeBefore passed (funds unlocked). */
export function withdrawExpiredTokenTransfers(sim: SimContext, app: WalletCore): number {
  const now = sim.clock.nowMicros();
  let n = 0;
  for (const c of app.contracts(app.dso, TRANSFER_INSTRUCTION_QN)) {
    const a = args(c).transfer as LfRecord;
    const sender = asText(a.sender);
    if (sim.store.partyKeys(sender)) continue; // an external sender signs its own withdrawal
    if (BigInt(Date.parse(asText(a.executeBefore))) * 1000n > now) continue;
    const lockedExists = sim.store.contract(asText(args(c).lockedAmulet))?.archivedOffset === null;
    const r = app.exerciseInterface([sender], TOKEN_STANDARD.transferInstruction, c.contractId, 'TransferInstruction_Withdraw', {
      extraArgs: extraArgsWith({
        [CTX.amuletRules]: app.rules(),
        [CTX.openRound]: app.openRound().cid,
        [CTX.expireLock]: lockedExists,
      }),
    });
    app.log(
      [sender, asText(a.receiver)],
      {
        transaction_type: 'notification',
        choice: 'TransferInstruction_Withdraw',
        template: TRANSFER_INSTRUCTION_QN,
        event_id: r.res.updateId,
        details: 'Token-standard transfer expired; locked funds returned to the sender',
      },
      r.res,
    );
    n++;
  }
  return n;
}

/**
 * The DSO delegate's automation for external parties' TransferCommands (Splice runs it on the SVs): expired commands
 * are archived; a command whose nonce is the sender's counter is executed through the receiver's preapproval (a
 * command with a later nonce waits for its turn). The sender's `TransferCommandCounter` is created on first use.
 */
export function processTransferCommands(sim: SimContext, app: WalletCore): number {
  let n = 0;
  const now = sim.clock.nowMicros();
  const commands = app.contracts(app.dso, T.command).sort((a, b) => Number(BigInt(asText(args(a).nonce)) - BigInt(asText(args(b).nonce))));
  for (const c of commands) {
    const a = args(c);
    const sender = asText(a.sender);
    if (BigInt(Date.parse(asText(a.expiresAt))) * 1000n <= now) {
      const r = app.exercise([app.dso], T.command, c.contractId, 'TransferCommand_Expire', { p: app.dso });
      app.log(
        [sender],
        {
          transaction_type: 'notification',
          choice: 'TransferCommand_Expire',
          template: T.command,
          event_id: r.res.updateId,
          details: `Transfer command with nonce ${asText(a.nonce)} expired`,
        },
        r.res,
      );
      n++;
      continue;
    }
    let counter = app.contracts(app.dso, T.counter).find((x) => args(x).sender === sender);
    if (!counter) {
      const created = app.submit(
        [app.dso],
        [{ CreateCommand: { templateId: `#splice-amulet:${T.counter}`, createArguments: { dso: app.dso, sender, nextNonce: '0' } } }],
      );
      counter = sim.store.contract(created.tx.nodes.find((x) => x.kind === 'create')?.contractId ?? '');
      if (!counter) continue;
    }
    if (BigInt(asText(args(counter).nextNonce)) < BigInt(asText(a.nonce))) continue; // an earlier nonce is still in flight
    const amount = num(a.amount);
    let inputs: string[];
    try {
      inputs = app.selectInputs(sender, amount);
    } catch {
      inputs = []; // insufficient funds: the command fails and spends its nonce, as on Splice
    }
    const pre = app.preapprovalOf(asText(a.receiver));
    const r = app.exercise([app.dso], T.command, c.contractId, 'TransferCommand_Send', {
      inputs,
      transferPreapprovalCidO: pre?.contractId ?? null,
      transferCounterCid: counter.contractId,
      openRound: app.openRound().cid,
    });
    const result = (r.result ?? {}) as LfRecord;
    if (result.succeeded === true)
      app.log(
        [sender, asText(a.receiver)],
        {
          transaction_type: 'transfer',
          choice: 'TransferCommand_Send',
          template: T.command,
          amulet_operation: 'transfer',
          event_id: r.res.updateId,
          sender: { party: sender, amount: `-${fmt(amount)}` },
          receivers: [{ party: asText(a.receiver), amount: fmt(amount) }],
          description: asText(a.description ?? ''),
        },
        r.res,
      );
    else
      app.log(
        [sender],
        {
          transaction_type: 'notification',
          choice: 'TransferCommand_Send',
          template: T.command,
          event_id: r.res.updateId,
          details: `Transfer command with nonce ${asText(a.nonce)} failed: ${asText(result.failureReason ?? '')}`,
        },
        r.res,
      );
    n++;
  }
  return n;
}
