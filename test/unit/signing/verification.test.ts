/** Prepared-transaction verification and clear signing against real protobuf fixtures hashed by the official library. */
import { describe, expect, it } from 'vitest';
import { type Value } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction, parsePreparedTransaction } from '@canton-network/core-tx-visualizer';
import { verifyPreparedTransaction } from '../../../src/services/signing/prepared-transaction.js';
import {
  amuletTransfer,
  DSO,
  iouSplit,
  myAppPackage,
  preapprovalSend,
  preapprovalSetup,
  preapprovalProposal,
  prepareResponse,
  tokenTransfer,
  VALIDATOR,
} from './fixtures.js';
import { must } from '../../support/must.js';
import { anyString, objectContaining, stringContaining, stringMatching } from '../../support/matchers.js';
import { ALICE, BOB, MALLORY, exerciseOf, useReferenceTypes } from './verification-support.js';

const types = useReferenceTypes();

describe('prepared transaction verification', () => {
  it('agrees with the official library on the hash and clear-signs a token-standard transfer', async () => {
    const tx = tokenTransfer({ sender: ALICE, receiver: BOB, amount: '25.5', memo: 'invoice 42' });
    const prep = await prepareResponse(tx);
    const { summary, hash } = await verifyPreparedTransaction(prep, ALICE, types);
    expect(Buffer.from(hash).toString('base64')).toBe(await hashPreparedTransaction(prep.preparedTransaction, 'base64'));
    expect(summary.hashHex).toBe(await hashPreparedTransaction(prep.preparedTransaction, 'hex'));
    expect(summary.mode).toBe('clear');
    expect(summary.clearSign).toEqual({
      kind: 'token-transfer',
      sender: ALICE,
      receiver: BOB,
      amount: '25.5',
      instrument: { admin: DSO, id: 'Amulet' },
      memo: 'invoice 42',
      executeBefore: stringMatching(/^\d{4}-/),
      proxyProvider: null,
    });
    expect(summary.headline).toBe(`Transfer 25.5 Amulet from ${ALICE} to ${BOB} (memo: invoice 42)`);
    expect(summary.actAs).toEqual([ALICE]);
    expect(summary.exercises.map((e) => [e.choice, e.interface, e.root])).toEqual([
      ['TransferFactory_Transfer', 'Splice.Api.Token.TransferInstructionV1:TransferFactory', true],
      ['Archive', null, false],
    ]);
    expect(summary.consumed).toHaveLength(1);
    expect(summary.created.map((c) => c.templateQualified)).toEqual(['Splice.Amulet:Amulet', 'Splice.Amulet:Amulet']);
    expect(summary.inputs).toEqual([objectContaining({ template: stringContaining('Splice.Amulet:Amulet') })]);
    expect(summary.amounts).toContainEqual(expect.objectContaining({ path: 'TransferFactory_Transfer.transfer.amount', value: '25.5' }));
    expect(summary.parties).toEqual(expect.arrayContaining([ALICE, BOB, DSO]));
    expect(summary.signingPartyRoles).toContain('metadata.submitterInfo.actAs');
    expect(summary.warnings).toEqual([]);
    // the library's own parser reads the same transaction
    expect(parsePreparedTransaction(prep.preparedTransaction).choiceId).toBe('TransferFactory_Transfer');
  });

  it('clear-signs a native Canton Coin transfer (ExternalPartyAmuletRules_CreateTransferCommand)', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(amuletTransfer({ sender: ALICE, receiver: BOB, amount: '10.0', description: 'rent' })),
      ALICE,
      types,
    );
    expect(summary.clearSign).toEqual({
      kind: 'amulet-transfer',
      sender: ALICE,
      receiver: BOB,
      delegate: VALIDATOR,
      amount: '10.0',
      instrument: { admin: DSO, id: 'Amulet' },
      memo: 'rent',
      expiresAt: anyString(),
      nonce: '7',
    });
    expect(must(summary.created[0], 'summary.created[0]').templateQualified).toBe('Splice.ExternalPartyAmuletRules:TransferCommand');
  });

  it('clear-signs a transfer preapproval proposal (receiver, provider, asset)', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(preapprovalProposal({ receiver: ALICE, provider: VALIDATOR })),
      ALICE,
      types,
    );
    expect(summary.clearSign).toEqual({
      kind: 'transfer-preapproval-proposal',
      receiver: ALICE,
      provider: VALIDATOR,
      asset: 'Canton Coin (Amulet)',
      expectedDso: DSO,
    });
    expect(summary.signingPartyRoles).toContain(
      'node 0: signatory of a created Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal',
    );
  });

  it('clear-signs the console’s own pre-approval setup (ExternalPartySetupProposal_Accept, typed by the real splice-amulet)', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(preapprovalSetup({ user: ALICE, validator: VALIDATOR })),
      ALICE,
      types,
    );
    expect(summary.mode).toBe('clear');
    expect(summary.clearSign).toMatchObject({ kind: 'preapproval-setup', user: ALICE, validator: VALIDATOR, dso: DSO });
    expect(summary.clearSign).toMatchObject({ preapprovalExpiresAt: '2027-01-01T00:00:00.000Z' });
    expect(summary.headline).toBe(
      `Accept the wallet setup of validator ${VALIDATOR}: ` +
        `pre-approve incoming Canton Coin transfers to ${ALICE} until 2027-01-01T00:00:00.000Z`,
    );
    // the proposal someone else is to accept is described, not clear-signed
    const other = await verifyPreparedTransaction(await prepareResponse(preapprovalSetup({ user: BOB, validator: VALIDATOR })), BOB, types);
    expect(other.summary.mode).toBe('clear');
    const forBob = preapprovalSetup({ user: BOB, validator: VALIDATOR });
    must(must(forBob.metadata, 'forBob.metadata').submitterInfo, 'submitter info').actAs = [ALICE, BOB];
    const asAlice = await verifyPreparedTransaction(await prepareResponse(forBob), ALICE, types);
    expect(asAlice.summary.mode).toBe('described');
  });

  it(
    'clear-signs a Canton Coin transfer through a pre-approval (TransferPreapproval_Send), ' + 'receiver read from the pre-approval',
    async () => {
      const { summary } = await verifyPreparedTransaction(
        await prepareResponse(preapprovalSend({ sender: ALICE, receiver: BOB, provider: VALIDATOR, amount: '12.5', memo: 'lunch' })),
        ALICE,
        types,
      );
      expect(summary.mode).toBe('clear');
      expect(summary.clearSign).toMatchObject({
        kind: 'preapproval-send',
        sender: ALICE,
        receiver: BOB,
        provider: VALIDATOR,
        amount: '12.5',
      });
      expect(summary.headline).toBe(`Transfer 12.5 Canton Coin from ${ALICE} to ${BOB} (pre-approved) (memo: lunch)`);
      // the nested record and variant types of the real package are described field by field
      const arg = must(summary.description.nodes[0], 'summary.description.nodes[0]').argument;
      expect(arg).toMatchObject({ kind: 'record', type: 'Splice.AmuletRules:TransferPreapproval_Send' });
      expect(JSON.stringify(arg)).toContain('"constructor":"InputAmulet"');
    },
  );

  it('falls back to blind signing with the hash and a warning for anything else', async () => {
    const { summary } = await verifyPreparedTransaction(
      await prepareResponse(iouSplit({ owner: ALICE, amount: '5.0', counterparty: BOB })),
      ALICE,
      types,
    );
    expect(summary.mode).toBe('blind');
    expect(summary.clearSign).toBeNull();
    expect(summary.warnings[0]).toMatch(/^Blind signing: the types of package 1f0{62} \(the reference participant has no package/);
    expect(summary.headline).toMatch(
      new RegExp(`^Blind signature over ${summary.hashBase64.replace(/[+/]/g, '.')}: Iou_Split on MyApp.Iou:Iou `),
    );
    expect(summary.amounts.map((a) => a.value)).toEqual(['5.0', '5.0', '1.0']);
    // still described from its own shape, marked untyped
    expect(must(summary.description.nodes[0], 'summary.description.nodes[0]').argument).toMatchObject({ kind: 'record', type: null });
  });

  it('describes an application transaction field by field from its verified package (no recogniser needed)', async () => {
    const tx = iouSplit({ owner: ALICE, amount: '5.0', counterparty: BOB, packageId: myAppPackage.packageId });
    const { summary } = await verifyPreparedTransaction(await prepareResponse(tx), ALICE, types);
    expect(summary.mode).toBe('described');
    expect(summary.warnings).toEqual([]);
    expect(summary.headline).toMatch(/^Iou_Split on MyApp.Iou:Iou [0-9a-f]{10}…: splitAmount 5, newOwner bob::12202222…2222$/);
    expect(summary.description.nodes.map((n) => [n.kind, n.depth, n.choice ?? n.templateId?.split(':').slice(1).join(':')])).toEqual([
      ['exercise', 0, 'Iou_Split'],
      ['create', 1, 'MyApp.Iou:Iou'],
      ['create', 1, 'MyApp.Iou:Iou'],
    ]);
    expect(must(summary.description.nodes[0], 'summary.description.nodes[0]').argument).toEqual({
      kind: 'record',
      type: 'MyApp.Iou:Iou_Split',
      fields: [
        { name: 'splitAmount', value: { kind: 'numeric', type: 'Numeric 10', value: '5.0', scale: 10 } },
        { name: 'newOwner', value: { kind: 'party', type: 'Party', party: BOB } },
      ],
    });
    expect(summary.packages).toEqual([{ packageId: myAppPackage.packageId, name: 'my-app', version: '1.0.0' }]);
  });

  it('names the fields of an unlabelled transaction (as Canton sends them) from the packages, and still recognises it', async () => {
    const tx = tokenTransfer({ sender: ALICE, receiver: BOB, amount: '7.25' });
    const strip = (v: Value | undefined): void => {
      if (v?.sum.oneofKind === 'record') {
        for (const f of v.sum.record.fields) {
          f.label = '';
          strip(f.value);
        }
      } else if (v?.sum.oneofKind === 'list') v.sum.list.elements.forEach(strip);
      else if (v?.sum.oneofKind === 'optional') strip(v.sum.optional.value);
    };
    for (const n of must(tx.transaction, 'tx.transaction').nodes)
      if (n.versionedNode.oneofKind === 'v1') {
        const t = n.versionedNode.v1.nodeType;
        if (t.oneofKind === 'exercise') strip(t.exercise.chosenValue);
        if (t.oneofKind === 'create') strip(t.create.argument);
      }
    const { summary } = await verifyPreparedTransaction(await prepareResponse(tx), ALICE, types);
    expect(summary.mode).toBe('clear');
    expect(summary.clearSign).toMatchObject({ kind: 'token-transfer', sender: ALICE, receiver: BOB, amount: '7.25' });
    expect(summary.amounts).toContainEqual(expect.objectContaining({ path: 'TransferFactory_Transfer.transfer.amount', value: '7.25' }));
  });

  it(
    'does not trust labels that contradict the package: swapped sender/receiver labels make it blind, ' +
      'not a transfer to the wrong party',
    async () => {
      const tx = tokenTransfer({ sender: ALICE, receiver: MALLORY, amount: '50.0' });
      const transfer = must(exerciseOf(tx, '0').chosenValue, "exerciseOf(tx, '0').chosenValue");
      const t =
        transfer.sum.oneofKind === 'record'
          ? must(
              must(
                transfer.sum.record.fields.find((f) => f.label === 'transfer'),
                'the transfer field',
              ).value,
              "the transfer field's value",
            )
          : null;
      if (t?.sum.oneofKind !== 'record') throw new Error('fixture');
      // what a lying participant sends: MALLORY still in the receiver position, but labelled as if ALICE were
      const [s0, r0] = t.sum.record.fields;
      must(s0, 's0').label = 'receiver';
      must(r0, 'r0').label = 'sender';
      const { summary } = await verifyPreparedTransaction(await prepareResponse(tx), ALICE, types);
      expect(summary.mode).toBe('blind');
      expect(summary.clearSign).toBeNull();
      expect(summary.description.problems[0]).toMatch(
        /field 1 of Splice.Api.Token.TransferInstructionV1:Transfer is labelled “receiver”.*names it “sender”/,
      );
    },
  );

  it('does not clear-sign a transfer whose sender is someone else', async () => {
    const tx = tokenTransfer({ sender: BOB, receiver: MALLORY, amount: '1.0' });
    must(must(tx.metadata, 'tx.metadata').submitterInfo, 'submitter info').actAs = [ALICE, BOB];
    const { summary } = await verifyPreparedTransaction(await prepareResponse(tx), ALICE, types);
    expect(summary.mode).toBe('described');
    expect(summary.clearSign).toBeNull();
    expect(summary.warnings).toContain(`The transfer’s sender ${BOB} is not the signing party`);
  });
});
