/**
 * Interop with the official wallet SDK (`@canton-network/wallet-sdk`), used exactly as its LocalNet examples use it
 * (docs/wallet-integration-guide/examples: `SDK.create` with the self-signed `ledger-api-user` token, the token and
 * amulet namespaces pointed at the validator and its scan-proxy registry) — with the simulator's URLs in place of
 * LocalNet's: two external parties are onboarded, the sender taps, lists its holdings through the token API, creates a
 * token-standard transfer, the receiver accepts it, and both read their history through the SDK's transaction parser.
 * Every signature is made over a hash the SDK recomputed itself (`sdk.utils.hash`), compared with the participant's.
 * `@canton-network/core-ledger-client` reads the same ledger. No simulator-specific argument shapes are used: the
 * SDK builds every command from the registry's answers. The SDK's logs are collected and shown only on failure.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { CustomLogAdapter, SDK, type TokenProviderConfig } from '@canton-network/wallet-sdk';
import { LedgerClient } from '@canton-network/core-ledger-client';
import { AuthTokenProvider } from '@canton-network/core-wallet-auth';
import { startTestSim } from './helpers.js';
import type { TestSim } from './helpers.js';
import { must } from '../../support/must.js';

let sim: TestSim;
const logs: string[] = [];
const logAdapter = new CustomLogAdapter((level: string, ctx: unknown, message?: string) => {
  logs.push(`${level} ${message ?? ''} ${JSON.stringify(ctx).slice(0, 400)}`);
});
/** A pino logger (as the examples use) writing into `logs` instead of stdout. */
const pinoLogger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line.trim()) });

/** LocalNet's token provider config (the examples' `TOKEN_PROVIDER_CONFIG_DEFAULT`). */
const auth: TokenProviderConfig = {
  method: 'self_signed',
  issuer: 'unsafe-auth',
  credentials: { clientId: 'ledger-api-user', clientSecret: 'unsafe', audience: 'https://canton.network.global', scope: '' },
};

type Sdk = Awaited<ReturnType<typeof createSdk>>;
function createSdk(base: string) {
  const validatorUrl = new URL(`${base}/api/validator`);
  const registryUrl = new URL(`${validatorUrl.href}/v0/scan-proxy`);
  return SDK.create({
    auth,
    ledgerClientUrl: base,
    logAdapter,
    token: { validatorUrl, registries: [registryUrl], auth },
    amulet: { validatorUrl, scanApiUrl: new URL(`${base}/api/scan`), auth, registryUrl },
  });
}

let sdk: Sdk;
let registryUrl: URL;

/** Prepares, checks the participant's hash against the SDK's own recomputation, signs that hash and executes. */
async function signAndExecute(
  partyId: string,
  privateKey: string,
  commands: Parameters<Sdk['ledger']['prepare']>[0]['commands'],
  disclosedContracts: Parameters<Sdk['ledger']['prepare']>[0]['disclosedContracts'],
): Promise<void> {
  const prepared = sdk.ledger.prepare({ partyId, commands, disclosedContracts });
  const { response } = await prepared.toJSON();
  const recomputed = (await sdk.utils.hash.preparedTransaction(response.preparedTransaction)).toBase64();
  expect(recomputed).toBe(response.preparedTransactionHash);
  await prepared.sign(privateKey).execute({ partyId });
}

async function onboard(hint: string): Promise<{ partyId: string; privateKey: string }> {
  const keys = sdk.keys.generate();
  const prepared = sdk.party.external.create(keys.publicKey, { partyHint: hint });
  const topology = await prepared.topology();
  expect(await sdk.utils.hash.topologyTransaction(topology.topologyTransactions)).toBe(topology.multiHash);
  const party = await prepared.sign(keys.privateKey).execute();
  return { partyId: party.partyId, privateKey: keys.privateKey };
}

let sender: { partyId: string; privateKey: string };
let receiver: { partyId: string; privateKey: string };

beforeAll(async () => {
  sim = await startTestSim();
  registryUrl = new URL(`${sim.url}/api/validator/v0/scan-proxy`);
  sdk = await createSdk(sim.url);
}, 120_000);
let failed = false;
afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') failed = true;
});
afterAll(async () => {
  if (failed) console.log(`wallet SDK logs:\n${logs.slice(-60).join('\n')}`);
  await sim.dispose();
});

describe('official wallet SDK against the simulator (LocalNet settings)', () => {
  it('SDK.create authenticates as ledger-api-user, with LocalNet’s admin rights', async () => {
    const rights = (await sdk.user.rights.list()).rights ?? [];
    expect(rights.some((r) => r.kind !== undefined && 'ParticipantAdmin' in r.kind)).toBe(true);
  });

  it('onboards two external parties (topology hash recomputed before signing)', async () => {
    sender = await onboard('interop-alice');
    receiver = await onboard('interop-bob');
    expect(sender.partyId).toMatch(/^interop-alice::1220[0-9a-f]{64}$/);
    expect(receiver.partyId).toMatch(/^interop-bob::1220[0-9a-f]{64}$/);
  }, 120_000);

  it('taps and lists the holding through the token API', async () => {
    const [tap, disclosed] = await sdk.amulet.tap(sender.partyId, '10000');
    await signAndExecute(sender.partyId, sender.privateKey, tap, disclosed);
    const utxos = await sdk.token.utxos.list({ partyId: sender.partyId });
    const amulet = utxos.filter(
      (u) => u.interfaceViewValue.amount === '10000.0000000000' && u.interfaceViewValue.instrumentId.id === 'Amulet',
    );
    expect(amulet).toHaveLength(1);
  }, 120_000);

  it('creates a token-standard transfer; the receiver sees it pending and accepts it', async () => {
    const [transfer, disclosed] = await sdk.token.transfer.create({
      sender: sender.partyId,
      recipient: receiver.partyId,
      instrumentId: 'Amulet',
      registryUrl,
      amount: '2000',
    });
    await signAndExecute(sender.partyId, sender.privateKey, transfer, disclosed);
    const pending = await sdk.token.transfer.pending(receiver.partyId);
    expect(pending).toHaveLength(1);
    const [accept, acceptDisclosed] = await sdk.token.transfer.accept({
      transferInstructionCid: must(pending[0], 'a pending transfer').contractId,
      registryUrl,
    });
    await signAndExecute(receiver.partyId, receiver.privateKey, accept, acceptDisclosed);
    const utxos = await sdk.token.utxos.list({ partyId: receiver.partyId });
    expect(
      utxos.filter((u) => u.interfaceViewValue.amount === '2000.0000000000' && u.interfaceViewValue.instrumentId.id === 'Amulet'),
    ).toHaveLength(1);
    expect(await sdk.token.transfer.pending(receiver.partyId)).toHaveLength(0);
  }, 120_000);

  it('reads the history of both parties through the SDK transaction parser', async () => {
    const senderTxs = (await sdk.token.holdings({ partyId: sender.partyId })).transactions;
    const labels = senderTxs.flatMap((t) => t.events.map((e) => e.label.type));
    expect(labels).toContain('Mint');
    const out = senderTxs.flatMap((t) => t.events).find((e) => e.label.type === 'TransferOut' || e.transferInstruction?.transfer);
    expect(out).toBeDefined();
    const receiverTxs = (await sdk.token.holdings({ partyId: receiver.partyId })).transactions;
    const incoming = receiverTxs.flatMap((t) => t.events).find((e) => e.label.type === 'TransferIn');
    expect(incoming?.label).toMatchObject({ type: 'TransferIn', sender: sender.partyId });
    const last = must(receiverTxs.at(-1), "the receiver's latest transaction");
    const byId = await sdk.token.transactionsById({ updateId: last.updateId, partyId: receiver.partyId });
    expect(byId.updateId).toBe(last.updateId);
  }, 120_000);

  it('core-ledger-client reads the same ledger', async () => {
    const client = new LedgerClient({
      baseUrl: new URL(sim.url),
      logger: pinoLogger,
      accessTokenProvider: new AuthTokenProvider(auth, pinoLogger),
    });
    await client.init();
    expect(await client.checkIfPartyExists(sender.partyId)).toBe(true);
    const end = await client.get('/v2/state/ledger-end');
    expect(end.offset ?? 0).toBeGreaterThan(0);
    expect(await client.getSynchronizerId()).toMatch(/::1220/);
    const me = await client.get('/v2/authenticated-user');
    expect(me.user.id).toBe('ledger-api-user');
    const acs = await client.post('/v2/state/active-contracts', {
      activeAtOffset: end.offset ?? 0,
      eventFormat: {
        filtersByParty: {
          [receiver.partyId]: {
            cumulative: [
              {
                identifierFilter: {
                  InterfaceFilter: {
                    value: {
                      interfaceId: '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding',
                      includeInterfaceView: true,
                      includeCreatedEventBlob: false,
                    },
                  },
                },
              },
            ],
          },
        },
        verbose: false,
      },
    });
    expect(Array.isArray(acs)).toBe(true);
    expect((acs as unknown[]).length).toBeGreaterThanOrEqual(1);
  });
});
