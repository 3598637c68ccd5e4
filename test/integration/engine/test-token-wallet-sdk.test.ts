/**
 * The real `splice-test-token-v1` (../shared/reference/dars) on the Daml-LF engine, driven by the official wallet SDK
 * (`@canton-network/wallet-sdk`) with LocalNet's settings, as a wallet would: the SDK uploads the DAR, allocates the
 * admin, onboards two external parties, and builds every token-standard command itself from the instrument's registry
 * (`test-token-registry.ts`, answers validated against the reference YAMLs). The admin mints to itself and transfers
 * to Alice; Alice accepts, transfers to Bob through the TransferFactory interface, Bob accepts — the external parties
 * sign hashes the SDK recomputed itself — and holdings, their Holding views, pending instructions and the parsed
 * history are read through the SDK's token API.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CustomLogAdapter, SDK, type TokenProviderConfig } from '@canton-network/wallet-sdk';
import { readDar } from '../../../src/daml-lf/index.js';
import { referenceDir, startTestSim, type TestSim } from '../simulator/helpers.js';
import { startTestTokenRegistry, type TestTokenRegistry } from './test-token-registry.js';

const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';
const INSTRUMENT = 'TestToken';
const logs: string[] = [];
const logAdapter = new CustomLogAdapter((level: string, ctx: unknown, message?: string) => {
  logs.push(`${level} ${message ?? ''} ${JSON.stringify(ctx).slice(0, 400)}`);
});
/** LocalNet's token provider config (the SDK examples' `TOKEN_PROVIDER_CONFIG_DEFAULT`). */
const auth: TokenProviderConfig = {
  method: 'self_signed',
  issuer: 'unsafe-auth',
  credentials: { clientId: 'ledger-api-user', clientSecret: 'unsafe', audience: 'https://canton.network.global', scope: '' },
};
const createSdk = (ledger: string, registry: URL) =>
  SDK.create({
    auth,
    ledgerClientUrl: ledger,
    logAdapter,
    token: { validatorUrl: new URL(`${ledger}/api/validator`), registries: [registry], auth },
  });
type Sdk = Awaited<ReturnType<typeof createSdk>>;
type Commands = Parameters<Sdk['ledger']['prepare']>[0]['commands'];
type Disclosed = Parameters<Sdk['ledger']['prepare']>[0]['disclosedContracts'];
interface Party {
  partyId: string;
  privateKey: string;
}

let sim: TestSim;
let registry: TestTokenRegistry;
let sdk: Sdk;
let admin: string;
let alice: Party;
let bob: Party;
let transferUpdateId: string;

/** Prepare → the SDK's own hash of the prepared transaction must equal the participant's → sign → execute. */
async function signAndExecute(p: Party, commands: Commands, disclosedContracts: Disclosed): Promise<string> {
  const prepared = sdk.ledger.prepare({ partyId: p.partyId, commands, disclosedContracts });
  const { response } = await prepared.toJSON();
  const recomputed = (await sdk.utils.hash.preparedTransaction(response.preparedTransaction)).toBase64();
  expect(recomputed).toBe(response.preparedTransactionHash);
  return (await prepared.sign(p.privateKey).execute({ partyId: p.partyId })).updateId;
}

async function onboard(s: Sdk, hint: string): Promise<Party> {
  const keys = s.keys.generate();
  const party = await s.party.external.create(keys.publicKey, { partyHint: hint }).sign(keys.privateKey).execute();
  return { partyId: party.partyId, privateKey: keys.privateKey };
}

/**
 * The party's own unlocked TestToken holdings through the token API: `[amount, owner, instrument admin]` of each
 * Holding view (the admin, co-signatory of every holding, also sees the others').
 */
async function holdings(partyId: string): Promise<string[][]> {
  const utxos = await sdk.token.utxos.list({ partyId });
  return utxos
    .filter((u) => u.interfaceViewValue.instrumentId.id === INSTRUMENT && u.interfaceViewValue.owner === partyId)
    .map((u) => [u.interfaceViewValue.amount, u.interfaceViewValue.owner, u.interfaceViewValue.instrumentId.admin])
    .sort();
}

let failed = false;
afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') failed = true;
});

beforeAll(async () => {
  sim = await startTestSim();
  // the SDK is created once the registry runs; until then a bootstrap SDK (no registry) sets the ledger up
  const boot = await createSdk(sim.url, new URL('http://127.0.0.1:9/'));
  const darBytes = new Uint8Array(readFileSync(path.join(referenceDir, 'dars/splice-test-token-v1-1.0.0.dar')));
  const mainId = readDar(darBytes).main.packageId;
  await boot.ledger.dar.upload(darBytes, mainId);
  expect(await boot.ledger.dar.check(mainId)).toBe(true);
  admin = await boot.party.internal.allocate({ partyHint: 'tt-admin' });
  await boot.ledger.internal.submit({
    commands: [{ CreateCommand: { templateId: `${TOKEN}:TokenRules`, createArguments: { admin } } }],
    actAs: [admin],
  });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- its replacement (acsReader) has no typed JS-contract read in SDK 1.4
  const [rules] = await boot.ledger.acs.read({
    templateIds: [`${TOKEN}:TokenRules`],
    parties: [admin],
    filterByParty: true,
  });
  if (!rules?.createdEventBlob) throw new Error('the TokenRules contract or its created-event blob is missing');
  registry = await startTestTokenRegistry(admin, INSTRUMENT, {
    templateId: rules.templateId,
    contractId: rules.contractId,
    createdEventBlob: rules.createdEventBlob,
    synchronizerId: rules.synchronizerId,
  });
  sdk = await createSdk(sim.url, registry.url);
}, 180_000);
afterAll(async () => {
  if (failed) console.log(`wallet SDK logs:\n${logs.slice(-60).join('\n')}\nregistry requests:\n${registry.requests.join('\n')}`);
  await registry.close();
  await sim.dispose();
});

describe('splice-test-token-v1 driven by the official wallet SDK', () => {
  it('the admin mints to itself and transfers to an external party, who accepts with a signature over the recomputed hash', async () => {
    alice = await onboard(sdk, 'tt-alice');
    bob = await onboard(sdk, 'tt-bob');
    const holding = { owner: admin, instrumentId: { admin, id: INSTRUMENT }, amount: '1000.0', lock: null, meta: { values: {} } };
    await sdk.ledger.internal.submit({
      commands: [{ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding } } }],
      actAs: [admin],
    });
    expect(await holdings(admin)).toEqual([['1000.0000000000', admin, admin]]);

    const [transfer, disclosed] = await sdk.token.transfer.create({
      sender: admin,
      recipient: alice.partyId,
      amount: '300',
      instrumentId: INSTRUMENT,
      registryUrl: registry.url,
    });
    await sdk.ledger.internal.submit({ commands: [transfer], actAs: [admin], disclosedContracts: disclosed });
    const pending = await sdk.token.transfer.pending(alice.partyId);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.interfaceViewValue.transfer).toMatchObject({ sender: admin, receiver: alice.partyId, amount: '300.0000000000' });

    const [accept, acceptDisclosed] = await sdk.token.transfer.accept({
      transferInstructionCid: pending[0]?.contractId ?? '',
      registryUrl: registry.url,
    });
    await signAndExecute(alice, accept, acceptDisclosed);
    expect(await holdings(alice.partyId)).toEqual([['300.0000000000', alice.partyId, admin]]);
    expect(await holdings(admin)).toEqual([['700.0000000000', admin, admin]]);
    expect(await sdk.token.transfer.pending(alice.partyId)).toHaveLength(0);
  }, 180_000);

  it('an external sender transfers through TransferFactory_Transfer; the external receiver accepts', async () => {
    const [transfer, disclosed] = await sdk.token.transfer.create({
      sender: alice.partyId,
      recipient: bob.partyId,
      amount: '120.5',
      instrumentId: INSTRUMENT,
      registryUrl: registry.url,
      memo: 'rent',
    });
    expect(transfer.ExerciseCommand).toMatchObject({ choice: 'TransferFactory_Transfer', contractId: disclosed[0]?.contractId });
    transferUpdateId = await signAndExecute(alice, [transfer], disclosed);
    // the input holding is spent: Alice keeps the change, the rest waits in the instruction
    expect(await holdings(alice.partyId)).toEqual([['179.5000000000', alice.partyId, admin]]);
    const pending = await sdk.token.transfer.pending(bob.partyId);
    expect(pending).toHaveLength(1);
    const [accept, acceptDisclosed] = await sdk.token.transfer.accept({
      transferInstructionCid: pending[0]?.contractId ?? '',
      registryUrl: registry.url,
    });
    await signAndExecute(bob, accept, acceptDisclosed);
    expect(await holdings(bob.partyId)).toEqual([['120.5000000000', bob.partyId, admin]]);
    expect(await sdk.token.transfer.pending(bob.partyId)).toHaveLength(0);
    expect(registry.requests).toContain('POST /registry/transfer-instruction/v1/transfer-factory');
  }, 180_000);

  // The SDK's parser reads a contract's interface views as if it implemented one interface (`interfaceViews[0]`);
  // the test token's TokenTransferOffer implements both TransferInstruction and Holding, so the parser cannot label
  // its accept under either order of the views. The transfer itself parses.
  it('the SDK parses the sender’s transfer: the holdings change and the pending instruction', async () => {
    const tx = await sdk.token.transactionsById({ updateId: transferUpdateId, partyId: alice.partyId });
    expect(tx.updateId).toBe(transferUpdateId);
    const [event] = tx.events;
    // a two-step transfer's initiation: the sender's holdings shrink by the amount now held in the instruction
    expect(event?.label).toMatchObject({ type: 'MergeSplit', reason: 'rent', tokenStandardChoice: { name: 'TransferFactory_Transfer' } });
    expect(event?.unlockedHoldingsChangeSummaries).toMatchObject([{ inputAmount: '300', outputAmount: '179.5', amountChange: '-120.5' }]);
    expect(event?.transferInstruction?.transfer).toMatchObject({ sender: alice.partyId, receiver: bob.partyId, amount: '120.5000000000' });
  }, 120_000);
});
