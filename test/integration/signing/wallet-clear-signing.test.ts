/**
 * Clear signing of the wallet choices an external party signs: Splice `WalletUserProxy` choices (proxied token
 * transfer, proxied instruction choices, public fetch) and the token standard's TransferInstruction_Accept / _Reject
 * / _Withdraw — verified from real protobuf prepared transactions hashed by the official library, shown field by
 * field (the wire the Signing view renders), and used by the signing policy. Lookalikes are described but not clear-signed with a warning.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../src/services/app-db.js';
import { referenceTypes } from '../../support/reference-packages.js';
import { numeric } from '../../unit/signing/fixtures.js';
import { prepareResponse } from '../../unit/signing/fixtures.js';
import { verifyPreparedTransaction } from '../../../src/services/signing/prepared-transaction.js';
import { DEFAULT_POLICY, evaluatePolicy } from '../../../src/services/signing/policy.js';
import { clearSignWire } from '../../../src/services/signing/index.js';
import { instructionChoice, proxyPublicFetch, proxyTransfer, type InstructionChoice } from './wallet-choices-fixtures.js';
import { must } from '../../support/must.js';

const ALICE = 'alice::1220' + '11'.repeat(32);
const BOB = 'bob::1220' + '22'.repeat(32);
const PROVIDER = 'wallet-provider::1220' + '77'.repeat(32);

const dbDir = mkdtempSync(path.join(os.tmpdir(), 'wallet-clear-types-'));
const db = openAppDb(dbDir);
const types = referenceTypes(db);
afterAll(() => {
  db.close();
  rmSync(dbDir, { recursive: true, force: true });
});

const fieldsOf = (w: ReturnType<typeof clearSignWire>) =>
  Object.fromEntries(w.fields.map((f) => [f.label, f.unit ? `${f.value} ${f.unit}` : f.value]));

describe('clear signing of wallet choices', () => {
  it('WalletUserProxy_TransferFactory_Transfer: the proxied transfer, field by field, with the provider', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(proxyTransfer({ sender: ALICE, receiver: BOB, amount: '42.5', provider: PROVIDER, memo: 'rent' })),
      ALICE,
      types,
    );
    expect(summary.mode).toBe('clear');
    expect(summary.clearSign).toMatchObject({
      kind: 'token-transfer',
      sender: ALICE,
      receiver: BOB,
      amount: '42.5',
      memo: 'rent',
      proxyProvider: PROVIDER,
      instrument: { id: 'Amulet' },
    });
    expect(summary.headline).toBe(`Transfer 42.5 Amulet from ${ALICE} to ${BOB} (memo: rent) through the wallet proxy of ${PROVIDER}`);
    const w = clearSignWire(must(summary.clearSign, 'a clear-sign recognition'));
    expect(w.title).toBe('Token transfer');
    expect(fieldsOf(w)).toMatchObject({ From: ALICE, To: BOB, Amount: '42.5 Amulet', Memo: 'rent', 'Through wallet proxy of': PROVIDER });
    expect(summary.warnings.some((x) => /Blind/.test(x))).toBe(false);
  });

  it('stays blind when the proxy names one transfer and the transaction performs another, or is for somebody else', async () => {
    const lying = proxyTransfer({
      sender: ALICE,
      receiver: BOB,
      amount: '1.0',
      provider: PROVIDER,
      tamperChild: (arg) => {
        const transfer =
          arg.sum.oneofKind === 'record'
            ? must(arg.sum.record.fields.find((f) => f.label === 'transfer')?.value, 'the transfer field')
            : undefined;
        if (transfer?.sum.oneofKind === 'record')
          must(
            transfer.sum.record.fields.find((f) => f.label === 'amount'),
            'the amount field',
          ).value = numeric('1000.0');
      },
    });
    const { summary } = await verifyPreparedTransaction(await prepareResponse(lying), ALICE, types);
    expect(summary.mode).toBe('described');
    expect(summary.warnings).toContain('The transaction does not contain the TransferFactory_Transfer the proxy choice names');
    // policy on a transaction no recogniser states looks at every amount: the real 1000 is over a limit of 10
    expect(evaluatePolicy({ ...DEFAULT_POLICY, maxAmountPerTransaction: '10' }, summary, 'online')).toMatchObject({
      allowed: false,
      reason: 'POLICY_AMOUNT',
    });

    const forBob = await verifyPreparedTransaction(
      await prepareResponse(proxyTransfer({ sender: BOB, receiver: ALICE, amount: '1.0', provider: PROVIDER })),
      BOB,
      types,
    );
    expect(forBob.summary.mode).toBe('clear');
    // signed by Alice although the proxy choice is Bob's: not a submitter at all → refused outright
    await expect(
      verifyPreparedTransaction(
        await prepareResponse(proxyTransfer({ sender: BOB, receiver: ALICE, amount: '1.0', provider: PROVIDER })),
        ALICE,
        types,
      ),
    ).rejects.toMatchObject({ reason: 'PARTY_NOT_SUBMITTER' });
  });

  const cases: Array<[InstructionChoice, 'accept' | 'reject' | 'withdraw', string, string]> = [
    ['TransferInstruction_Accept', 'accept', 'Accept pending transfer', BOB],
    ['TransferInstruction_Reject', 'reject', 'Reject pending transfer', BOB],
    ['TransferInstruction_Withdraw', 'withdraw', 'Withdraw pending transfer', ALICE],
  ];
  for (const [choice, action, title, actor] of cases) {
    for (const provider of [undefined, PROVIDER]) {
      it(`${provider ? `WalletUserProxy_${choice}` : choice}: the instruction's transfer read from its contract`, async () => {
        const tx = instructionChoice({
          choice,
          actor,
          sender: ALICE,
          receiver: BOB,
          amount: '7.25',
          memo: 'invoice 12',
          ...(provider ? { provider } : {}),
        });
        const { summary } = await verifyPreparedTransaction(await prepareResponse(tx), actor, types);
        expect(summary.mode, JSON.stringify(summary.warnings)).toBe('clear');
        expect(summary.clearSign).toMatchObject({
          kind: 'transfer-instruction',
          action,
          sender: ALICE,
          receiver: BOB,
          amount: '7.25',
          memo: 'invoice 12',
          proxyProvider: provider ?? null,
        });
        const w = clearSignWire(must(summary.clearSign, 'a clear-sign recognition'));
        expect(w.title).toBe(title);
        expect(fieldsOf(w)).toMatchObject({ From: ALICE, To: BOB, Amount: '7.25 Amulet', Memo: 'invoice 12' });
        expect(w.fields.map((f) => f.label)).toContain('Transfer instruction');
        expect(w.fields.some((f) => f.label === 'Through wallet proxy of')).toBe(provider !== undefined);
        expect(summary.headline).toMatch(
          new RegExp(`^${title.split(' ')[0]} the pending transfer of 7\\.25 Amulet from ${ALICE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        );
      });
    }
  }

  it('instruction choices: wrong role, unreadable transfer and a missing proxied exercise are described but not clear-signed', async () => {
    // a sender cannot accept, a receiver cannot withdraw
    const accept = await verifyPreparedTransaction(
      await prepareResponse(
        instructionChoice({ choice: 'TransferInstruction_Accept', actor: ALICE, sender: ALICE, receiver: BOB, amount: '1.0' }),
      ),
      ALICE,
      types,
    );
    expect(accept.summary.mode).toBe('described');
    expect(accept.summary.warnings.join(' ')).toMatch(/Only the receiver/);
    const withdraw = await verifyPreparedTransaction(
      await prepareResponse(
        instructionChoice({ choice: 'TransferInstruction_Withdraw', actor: BOB, sender: ALICE, receiver: BOB, amount: '1.0' }),
      ),
      BOB,
      types,
    );
    expect(withdraw.summary.warnings.join(' ')).toMatch(/Only the sender/);
    // the instruction contract is not among the inputs: nothing to describe the transfer with
    const unreadable = await verifyPreparedTransaction(
      await prepareResponse(
        instructionChoice({
          choice: 'TransferInstruction_Accept',
          actor: BOB,
          sender: ALICE,
          receiver: BOB,
          amount: '1.0',
          withoutInput: true,
        }),
      ),
      BOB,
      types,
    );
    expect(unreadable.summary.mode).toBe('described');
    expect(unreadable.summary.warnings.join(' ')).toMatch(/not readable from its contract/);
    // a proxy choice whose proxied exercise is not in the transaction
    const tx = instructionChoice({
      choice: 'TransferInstruction_Reject',
      actor: BOB,
      sender: ALICE,
      receiver: BOB,
      amount: '1.0',
      provider: PROVIDER,
    });
    const transaction = must(tx.transaction, 'the fixture transaction');
    const root = must(transaction.nodes[0], 'the root node');
    if (root.versionedNode.oneofKind === 'v1' && root.versionedNode.v1.nodeType.oneofKind === 'exercise')
      root.versionedNode.v1.nodeType.exercise.children = ['1'];
    transaction.nodes = transaction.nodes.slice(0, 2);
    transaction.nodeSeeds = transaction.nodeSeeds.slice(0, 2);
    const missing = await verifyPreparedTransaction(await prepareResponse(tx), BOB, types);
    expect(missing.summary.mode).toBe('described');
    expect(missing.summary.warnings).toContain('The transaction does not contain the TransferInstruction_Reject the proxy choice names');
  });

  it('WalletUserProxy_PublicFetch: a read of the provider’s proxy, no ledger change', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(proxyPublicFetch({ actor: ALICE, provider: PROVIDER })),
      ALICE,
      types,
    );
    expect(summary.clearSign).toMatchObject({ kind: 'proxy-public-fetch', actor: ALICE, provider: PROVIDER });
    expect(clearSignWire(must(summary.clearSign, 'a clear-sign recognition')).title).toBe('Read wallet proxy (no ledger change)');
    expect(summary.headline).toBe(`Read the wallet proxy contract of ${PROVIDER} as ${ALICE} (no ledger change)`);
  });

  it('policy: counterparties include the wallet provider; accepting counts the amount, rejecting does not', async () => {
    const proxied = (
      await verifyPreparedTransaction(
        await prepareResponse(proxyTransfer({ sender: ALICE, receiver: BOB, amount: '5.0', provider: PROVIDER })),
        ALICE,
        types,
      )
    ).summary;
    expect(evaluatePolicy({ ...DEFAULT_POLICY, allowedCounterparties: [BOB] }, proxied, 'online')).toMatchObject({
      allowed: false,
      reason: 'POLICY_COUNTERPARTY',
    });
    expect(evaluatePolicy({ ...DEFAULT_POLICY, allowedCounterparties: [BOB, PROVIDER] }, proxied, 'online')).toMatchObject({
      allowed: true,
    });
    const limit = { ...DEFAULT_POLICY, maxAmountPerTransaction: '5' };
    const accept = (
      await verifyPreparedTransaction(
        await prepareResponse(
          instructionChoice({ choice: 'TransferInstruction_Accept', actor: BOB, sender: ALICE, receiver: BOB, amount: '50.0' }),
        ),
        BOB,
        types,
      )
    ).summary;
    expect(evaluatePolicy(limit, accept, 'online')).toMatchObject({ allowed: false, reason: 'POLICY_AMOUNT' });
    const reject = (
      await verifyPreparedTransaction(
        await prepareResponse(
          instructionChoice({ choice: 'TransferInstruction_Reject', actor: BOB, sender: ALICE, receiver: BOB, amount: '50.0' }),
        ),
        BOB,
        types,
      )
    ).summary;
    expect(evaluatePolicy(limit, reject, 'online')).toMatchObject({ allowed: true });
  });
});
