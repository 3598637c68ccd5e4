/**
 * Validator admin external-party flows over real HTTP (`/v0/admin/external-party/*`): topology generate/submit signed
 * with a real Ed25519 key, setup proposal → prepare-accept → sign → submit-accept (TransferPreapproval), transfer
 * commands prepare-send → sign → submit-send executed by the DSO automation through the receiver's preapproval with
 * nonce ordering, and the balance. Every response is validated against validator-internal.yaml; the prepared
 * transactions are decoded and their V2 hash recomputed as a wallet would before signing.
 */
import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { newExternalKey } from './helpers.js';
import type { ExternalKey } from './helpers.js';
import { advance, nowMicros, onboard, OPERATOR, startTestSim, wcall, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

let sim: TestSim;
let base: string;
let key: ExternalKey;
let ext: string;
let alice: string;
let bob: string;

const signHex = (k: ExternalKey, hashHex: string): string => sign(null, Buffer.from(hashHex, 'hex'), k.privateKey).toString('hex');
const pubHex = (k: ExternalKey): string => k.raw.toString('hex');

async function extBalance(party: string): Promise<number> {
  const b = await wok(base, OPERATOR, 'GET', '/v0/admin/external-party/balance', {
    path: `/v0/admin/external-party/balance?party_id=${encodeURIComponent(party)}`,
  });
  expect(b.party_id).toBe(party);
  return Number(b.total_unlocked_coin);
}
const userBalance = async (user: string) => Number((await wok(base, user, 'GET', '/v0/wallet/balance')).effective_unlocked_qty);

/** Root choices and created templates (Module:Entity) of a prepared transaction, after checking its hash. */
async function inspect(transaction: string, txHashHex: string): Promise<{ choices: string[]; created: { entity: string; cid: string }[] }> {
  const decoded = decodePreparedTransaction(transaction);
  expect(Buffer.from(await hashPreparedTransaction(decoded, 'base64'), 'base64').toString('hex')).toBe(txHashHex);
  const choices: string[] = [];
  const created: { entity: string; cid: string }[] = [];
  for (const n of decoded.transaction?.nodes ?? []) {
    if (n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    if (t.oneofKind === 'exercise') choices.push(t.exercise.choiceId);
    if (t.oneofKind === 'create')
      created.push({ entity: `${t.create.templateId?.moduleName}:${t.create.templateId?.entityName}`, cid: t.create.contractId });
  }
  return { choices, created };
}

async function updateChoices(fromOffset: number, party: string): Promise<string[]> {
  const r = await fetch(`${base}/v2/updates?limit=1000`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      beginExclusive: fromOffset,
      updateFormat: {
        includeTransactions: {
          eventFormat: { filtersByParty: { [party]: {} }, verbose: false },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      },
    }),
  });
  const items = (await r.json()) as { update: { Transaction?: { value: { events: Record<string, { choice?: string }>[] } } } }[];
  return items
    .flatMap((i) => i.update.Transaction?.value.events ?? [])
    .flatMap((e) => Object.values(e).map((v) => v.choice ?? ''))
    .filter((c) => c !== '');
}
const ledgerEnd = async () => ((await (await fetch(`${base}/v2/state/ledger-end`)).json()) as { offset: number }).offset;

async function prepareSend(amount: number, nonce: number, expiresInSec = 3600) {
  return wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/prepare-send', {
    body: {
      sender_party_id: ext,
      receiver_party_id: bob,
      amount,
      expires_at: new Date((await nowMicros(base)) / 1000 + expiresInSec * 1000).toISOString(),
      nonce,
      description: `nonce ${nonce}`,
    },
  });
}
const submission = (transaction: string, txHash: string, k = key) => ({
  submission: { party_id: ext, transaction, signed_tx_hash: signHex(k, txHash), public_key: pubHex(key) },
});

beforeAll(async () => {
  sim = await startTestSim({ staticTime: true });
  base = sim.url;
  key = newExternalKey();
  alice = await onboard(base, 'alice');
  bob = await onboard(base, 'bob');
  await wok(base, 'alice', 'POST', '/v0/wallet/tap', { body: { amount: '1000' } });
});
afterAll(async () => {
  await sim.dispose();
});

describe('external party topology', () => {
  it(
    'generate returns the three onboarding transactions with hex hashes; ' + 'submit verifies the signatures and allocates the party',
    async () => {
      const gen = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/topology/generate', {
        body: { party_hint: 'ext-carol', public_key: pubHex(key) },
      });
      expect(gen.party_id).toBe(`ext-carol::${key.fingerprint}`);
      const txs = gen.topology_txs as { topology_tx: string; hash: string }[];
      expect(txs).toHaveLength(3);
      for (const t of txs) expect(t.hash).toMatch(/^1220[0-9a-f]{64}$/);

      // a signature by another key, or a missing signature over one transaction, allocates nothing
      const other = newExternalKey();
      const bad = await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/topology/submit', {
        body: {
          public_key: pubHex(key),
          signed_topology_txs: txs.map((t) => ({ topology_tx: t.topology_tx, signed_hash: signHex(other, t.hash) })),
        },
      });
      expect(bad.status).toBe(400);
      expect(String(bad.json.error)).toMatch(/not a valid signature/);
      const balanceStatus = async () =>
        (
          await wcall(base, OPERATOR, 'GET', '/v0/admin/external-party/balance', {
            path: `/v0/admin/external-party/balance?party_id=${encodeURIComponent(gen.party_id as string)}`,
          })
        ).status;
      expect(await balanceStatus()).toBe(404); // not allocated
      const wrongKey = await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/topology/submit', {
        body: {
          public_key: pubHex(other),
          signed_topology_txs: txs.map((t) => ({ topology_tx: t.topology_tx, signed_hash: signHex(other, t.hash) })),
        },
      });
      expect(wrongKey.status).toBe(400);
      expect(
        (
          await wcall(base, 'alice', 'POST', '/v0/admin/external-party/topology/generate', {
            body: { party_hint: 'x', public_key: pubHex(key) },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/topology/generate', {
            body: { party_hint: 'x', public_key: 'abcd' },
          })
        ).status,
      ).toBe(400);

      const sub = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/topology/submit', {
        body: {
          public_key: pubHex(key),
          signed_topology_txs: txs.map((t) => ({ topology_tx: t.topology_tx, signed_hash: signHex(key, t.hash) })),
        },
      });
      ext = sub.party_id as string;
      expect(ext).toBe(gen.party_id);
      expect(await balanceStatus()).toBe(200);
      expect(await extBalance(ext)).toBe(0);
    },
  );
});

describe('external party setup proposal', () => {
  it('operator proposes; the party signs the prepared accept; submit-accept creates its TransferPreapproval', async () => {
    const created = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal', { body: { user_party_id: ext } });
    const cid = created.contract_id as string;
    expect((await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal', { body: { user_party_id: ext } })).status).toBe(
      409,
    );
    const list = (await wok(base, OPERATOR, 'GET', '/v0/admin/external-party/setup-proposal')).contracts as {
      contract: { contract_id: string; template_id: string };
    }[];
    expect(list.map((c) => c.contract.contract_id)).toContain(cid);
    expect(list[0]?.contract.template_id).toMatch(/:Splice\.AmuletRules:ExternalPartySetupProposal$/);

    const prep = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal/prepare-accept', {
      body: { contract_id: cid, user_party_id: ext },
    });
    const seen = await inspect(prep.transaction as string, prep.tx_hash as string);
    expect(seen.choices).toContain('ExternalPartySetupProposal_Accept');
    expect(seen.choices).toContain('AmuletRules_CreateTransferPreapproval');
    expect(seen.created.map((c) => c.entity)).toEqual(
      expect.arrayContaining(['Splice.Amulet:ValidatorRight', 'Splice.AmuletRules:TransferPreapproval']),
    );

    // signed by a key the party does not have → refused, nothing committed
    const forged = await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal/submit-accept', {
      body: submission(prep.transaction as string, prep.tx_hash as string, newExternalKey()),
    });
    expect(forged.status).toBe(400);
    expect((await wok(base, OPERATOR, 'GET', '/v0/admin/external-party/setup-proposal')).contracts).toHaveLength(1);

    const acc = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal/submit-accept', {
      body: submission(prep.transaction as string, prep.tx_hash as string),
    });
    expect(acc.transfer_preapproval_contract_id).toMatch(/^00[0-9a-f]+/);
    expect((await wok(base, OPERATOR, 'GET', '/v0/admin/external-party/setup-proposal')).contracts).toHaveLength(0);
    // the preapproval works: alice sends to the external party in one step
    await wok(base, 'alice', 'POST', '/v0/wallet/transfer-preapproval/send', {
      body: { receiver_party_id: ext, amount: '100', deduplication_id: 'fund-ext' },
    });
    expect(await extBalance(ext)).toBe(100);
    // executing it again is a duplicate; submitting it through submit-send (another transaction kind) is refused
    expect(
      (
        await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/setup-proposal/submit-accept', {
          body: submission(prep.transaction as string, prep.tx_hash as string),
        })
      ).status,
    ).toBe(409);
    const wrongKind = await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', {
      body: submission(prep.transaction as string, prep.tx_hash as string),
    });
    expect(wrongKind.status).toBe(400);
    expect(String(wrongKind.json.error)).toMatch(/ExternalPartyAmuletRules_CreateTransferCommand/);
  });
});

describe('external party transfer commands', () => {
  it(
    'prepare-send builds ExternalPartyAmuletRules_CreateTransferCommand; submit-send commits it; ' +
      'the DSO automation transfers through the preapproval',
    async () => {
      await wok(base, 'bob', 'POST', '/v0/wallet/transfer-preapproval');
      const bob0 = await userBalance('bob');
      const p = await prepareSend(25, 0);
      expect(p.status).toBe(200);
      const seen = await inspect(p.json.transaction as string, p.json.tx_hash as string);
      expect(seen.choices).toEqual(['ExternalPartyAmuletRules_CreateTransferCommand']);
      const cmd = seen.created.find((c) => c.entity === 'Splice.ExternalPartyAmuletRules:TransferCommand');
      expect(cmd?.cid).toBe(p.json.transfer_command_contract_id_prefix);
      expect(p.json.transfer_command_contract_id_prefix).toMatch(/^00[0-9a-f]{64}$/);

      // a tampered signature is refused; a submission to the wrong endpoint too
      const other = newExternalKey();
      expect(
        (
          await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', {
            body: submission(p.json.transaction as string, p.json.tx_hash as string, other),
          })
        ).status,
      ).toBe(400);
      const wrongKey = {
        submission: { ...submission(p.json.transaction as string, p.json.tx_hash as string).submission, public_key: pubHex(other) },
      };
      expect(
        (await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', { body: wrongKey })).status,
      ).toBe(400);
      expect(await extBalance(ext)).toBe(100);

      const off = await ledgerEnd();
      const s = await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', {
        body: submission(p.json.transaction as string, p.json.tx_hash as string),
      });
      expect(typeof s.update_id).toBe('string');
      // executing the same prepared transaction again is a duplicate
      expect(
        (
          await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', {
            body: submission(p.json.transaction as string, p.json.tx_hash as string),
          })
        ).status,
      ).toBeGreaterThanOrEqual(400);
      expect(await extBalance(ext)).toBe(75);
      expect(await userBalance('bob')).toBe(bob0 + 25);
      const choices = await updateChoices(off, ext);
      expect(choices).toEqual(
        expect.arrayContaining(['ExternalPartyAmuletRules_CreateTransferCommand', 'TransferCommand_Send', 'TransferPreapproval_Send']),
      );
    },
  );

  it('orders by nonce: a future nonce waits, a spent nonce fails without moving funds, expiry archives', async () => {
    const send = async (amount: number, nonce: number, expires = 3600) => {
      const p = await prepareSend(amount, nonce, expires);
      expect(p.status).toBe(200);
      await wok(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/submit-send', {
        body: submission(p.json.transaction as string, p.json.tx_hash as string),
      });
    };
    await send(5, 2); // nonce 1 is not used yet: waits
    expect(await extBalance(ext)).toBe(75);
    await send(10, 1); // now 1 runs, then 2
    expect(await extBalance(ext)).toBe(60);
    const off = await ledgerEnd();
    await send(7, 0); // spent nonce: the command is consumed, nothing moves
    expect(await extBalance(ext)).toBe(60);
    expect(await updateChoices(off, ext)).toContain('TransferCommand_Send');
    // insufficient funds: fails, the nonce is spent
    await send(1000, 3);
    expect(await extBalance(ext)).toBe(60);
    await send(4, 4);
    expect(await extBalance(ext)).toBe(56);
    // a command with a future nonce that expires is archived by the expiry automation
    const off2 = await ledgerEnd();
    await send(1, 9, 60);
    await advance(base, 120);
    await extBalance(ext);
    expect(await updateChoices(off2, ext)).toContain('TransferCommand_Expire');
  });

  it('refuses bad prepare-send input with ErrorResponse and changes nothing', async () => {
    const end = await ledgerEnd();
    const bad = async (body: Record<string, unknown>, status: number) => {
      const r = await wcall(base, OPERATOR, 'POST', '/v0/admin/external-party/transfer-preapproval/prepare-send', { body });
      expect(r.status).toBe(status);
      expect(typeof r.json.error).toBe('string');
    };
    const exp = new Date((await nowMicros(base)) / 1000 + 3_600_000).toISOString();
    await bad({ sender_party_id: ext, receiver_party_id: bob, amount: -1, expires_at: exp, nonce: 0 }, 400);
    await bad({ sender_party_id: ext, receiver_party_id: bob, amount: 1, expires_at: '2000-01-01T00:00:00Z', nonce: 0 }, 400);
    await bad({ sender_party_id: ext, receiver_party_id: bob, amount: 1, expires_at: exp }, 400);
    await bad({ sender_party_id: alice, receiver_party_id: bob, amount: 1, expires_at: exp, nonce: 0 }, 400); // not external
    await bad({ sender_party_id: ext, receiver_party_id: alice, amount: 1, expires_at: exp, nonce: 0 }, 404); // no preapproval
    expect((await wcall(base, 'bob', 'POST', '/v0/admin/external-party/transfer-preapproval/prepare-send', { body: {} })).status).toBe(403);
    expect(
      (
        await wcall(base, OPERATOR, 'GET', '/v0/admin/external-party/balance', {
          path: '/v0/admin/external-party/balance?party_id=nobody::1220ab',
        })
      ).status,
    ).toBe(404);
    expect(await ledgerEnd()).toBe(end);
  });
});
