/**
 * The real Splice DARs (../shared/reference/dars) against the simulator over HTTP: every DAR uploads with exactly the
 * package ids its DALFs declare (including the token-standard API packages, which share name and version with the
 * simulator's built-in look-alikes), uploading it again changes nothing, splice-amulet 0.1.22 validates as an upgrade
 * of 0.1.21, everything is vetted and can be unvetted; the built-in wallet (tap, token-standard transfer), token
 * standard and demo Iou package keep working next to them, and a hostile DAR being read (in the worker) stalls no other
 * request. The folder must exist (the test fails otherwise).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDING_INTERFACE_ID } from '@canton-network/core-token-standard';
import { readArchive, readDar } from '../../../src/daml-lf/index.js';
import { hostileDar, until } from '../../support/hostile-dar.js';
import { darDecoder } from '../../../src/dar-reader/dar-decoder.js';
import type { Dar } from '../../../src/daml-lf/index.js';
import { acs, acsCreated, allocate, call, createIou, exercise, IOU, referenceDir, submitTx, wildcard } from './helpers.js';
import { errorCode, postBytes } from './dars-helpers.js';
import { onboard, startTestSim, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

const DARS = path.join(referenceDir, 'dars');
const darFiles = (): string[] => readdirSync(DARS).filter((f) => f.endsWith('.dar'));
const darBytes = (f: string): Uint8Array => new Uint8Array(readFileSync(path.join(DARS, f)));
/** Decoded once, before the simulator (same process) starts: decoding all of them blocks for seconds. */
const decoded = new Map<string, Dar>();
const dar = (f: string): Dar => decoded.get(f) ?? (decoded.set(f, readDar(darBytes(f))).get(f) as Dar);

interface VettedList {
  vettedPackages: { synchronizerId: string; topologySerial: number; packages: { packageId: string }[] }[];
}
const vetting = async (base: string): Promise<VettedList> =>
  (await call(base, 'POST', '/v2/package-vetting/list', { body: {} })).json as VettedList;
const packageIds = async (base: string): Promise<string[]> =>
  ((await call(base, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;

let sim: TestSim;
/** Built before the simulator (same process) starts: building it blocks the process for seconds. */
let hostile: Uint8Array;
beforeAll(async () => {
  for (const f of darFiles()) dar(f);
  hostile = hostileDar(dar('splice-amulet-0.1.21.dar'), 24);
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.dispose();
});

describe('real Splice DARs in the simulator', () => {
  it('the reference folder holds the real DARs', () => {
    expect(darFiles().length).toBeGreaterThanOrEqual(11);
    expect(darFiles()).toContain('splice-amulet-0.1.21.dar');
  });

  it('validate, then upload every DAR with its real package ids; the archives are served byte for byte', async () => {
    // 0.1.22 first: uploading 0.1.21 afterwards checks the pair in the other direction
    const files = darFiles().sort((a, b) => (a.includes('0.1.22') ? -1 : b.includes('0.1.22') ? 1 : a < b ? -1 : 1));
    for (const f of files) {
      const bytes = darBytes(f);
      const v = await postBytes(sim.url, '/v2/dars/validate', bytes);
      expect(v.status, `${f}: ${v.text}`).toBe(200);
      const r = await postBytes(sim.url, '/v2/dars', bytes);
      expect(r.status, `${f}: ${r.text}`).toBe(200);
    }
    const known = new Set(await packageIds(sim.url));
    let checked = 0;
    for (const f of files) {
      for (const a of dar(f).archives) {
        expect(known.has(a.packageId), `${f}: ${a.path}`).toBe(true);
        const res = await fetch(`${sim.url}/v2/packages/${a.packageId}`);
        const served = new Uint8Array(await res.arrayBuffer());
        expect(createHash('sha256').update(readArchive(served).payload).digest('hex')).toBe(a.packageId);
        expect(Buffer.from(served).equals(Buffer.from(a.bytes))).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 180_000);

  it('uploading the same DARs again is idempotent (same packages, same vetting serials)', async () => {
    const ids = await packageIds(sim.url);
    const before = await vetting(sim.url);
    for (const f of darFiles()) expect((await postBytes(sim.url, '/v2/dars', darBytes(f))).status, f).toBe(200);
    expect(await packageIds(sim.url)).toEqual(ids);
    expect((await vetting(sim.url)).vettedPackages.map((s) => s.topologySerial)).toEqual(
      before.vettedPackages.map((s) => s.topologySerial),
    );
  }, 180_000);

  it('every package of every DAR is vetted on both synchronizers; the real token-standard packages are the preferred ones', async () => {
    const vp = (await vetting(sim.url)).vettedPackages;
    expect(vp).toHaveLength(2);
    for (const s of vp) {
      const ids = new Set(s.packages.map((p) => p.packageId));
      for (const f of darFiles()) for (const p of dar(f).packages) expect(ids.has(p.packageId), `${f} ${p.name}`).toBe(true);
    }
    const holdingDar = dar('splice-api-token-holding-v1-1.0.0.dar');
    const alice = (
      (await call(sim.url, 'POST', '/v2/parties', { body: { partyIdHint: 'RealDarAlice', synchronizerId: '' } })).json as {
        partyDetails: { party: string };
      }
    ).partyDetails.party;
    const pref = await call(sim.url, 'POST', '/v2/interactive-submission/preferred-packages', {
      body: { packageVettingRequirements: [{ packageName: 'splice-api-token-holding-v1', parties: [alice] }] },
    });
    expect(pref.status).toBe(200);
    expect((pref.json as { packageReferences: { packageId: string }[] }).packageReferences[0]?.packageId).toBe(holdingDar.main.packageId);
  });

  it('splice-amulet 0.1.22 is a valid upgrade of 0.1.21: unvet 0.1.22 (and splice-wallet, which needs it), vet both again', async () => {
    const v22 = dar('splice-amulet-0.1.22.dar').main;
    const v21 = dar('splice-amulet-0.1.21.dar').main;
    // 0.1.22 and every package that depends on it, transitively (splice-wallet 0.1.23 among them)
    const all = darFiles().flatMap((f) => dar(f).packages);
    const group = new Set([v22.packageId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const p of all)
        if (!group.has(p.packageId) && p.dependencies.some((d) => group.has(d))) {
          group.add(p.packageId);
          grew = true;
        }
    }
    expect(group.has(dar('splice-wallet-0.1.23.dar').main.packageId)).toBe(true);
    expect([v21.name, v21.version, v22.name, v22.version]).toEqual(['splice-amulet', '0.1.21', 'splice-amulet', '0.1.22']);
    const sync = (await vetting(sim.url)).vettedPackages[0]?.synchronizerId as string;
    const change = async (op: 'Vet' | 'Unvet', dryRun = false) =>
      call(sim.url, 'POST', '/v2/package-vetting/update', {
        body: {
          synchronizerId: sync,
          dryRun,
          changes: [{ operation: { [op]: { value: { packages: [...group].map((packageId) => ({ packageId })) } } } }],
        },
      });
    const unvet = await change('Unvet');
    expect(unvet.status, unvet.text).toBe(200);
    expect((await vetting(sim.url)).vettedPackages.find((s) => s.synchronizerId === sync)?.packages.map((p) => p.packageId)).not.toContain(
      v22.packageId,
    );
    // vetting 0.1.22 next to 0.1.21 runs the upgrade check; a dry run changes nothing
    const dry = await change('Vet', true);
    expect(dry.status, dry.text).toBe(200);
    const vet = await change('Vet');
    expect(vet.status, vet.text).toBe(200);
    expect((await postBytes(sim.url, '/v2/dars/validate', darBytes('splice-amulet-0.1.22.dar'))).status).toBe(200);
  });

  it('a corrupted real DAR is refused with a clear reason and changes nothing', async () => {
    const before = await packageIds(sim.url);
    const bytes = darBytes('splice-util-0.1.7.dar');
    const cut = await postBytes(sim.url, '/v2/dars', bytes.slice(0, Math.floor(bytes.length / 2)));
    expect(cut.status).toBe(400);
    expect(errorCode(cut)).toBe('INVALID_DAR');
    expect((cut.json as { cause: string }).cause).toMatch(/zip/i);
    expect(await packageIds(sim.url)).toEqual(before);
  });

  it('the built-in wallet and token standard keep working after the real Splice DARs were uploaded', async () => {
    const party = await onboard(sim.url, 'realdar-user');
    await wok(sim.url, 'realdar-user', 'POST', '/v0/wallet/tap', { body: { amount: '25' } });
    const balance = await wok(sim.url, 'realdar-user', 'GET', '/v0/wallet/balance');
    expect(Number(balance.effective_unlocked_qty)).toBeGreaterThan(24);
    // `#splice-api-token-holding-v1:…` now names the built-in and the real interface: the amulet shows its view
    const events = acsCreated(
      await acs(sim.url, {
        filtersByParty: {
          [party]: {
            cumulative: [
              { identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_INTERFACE_ID, includeInterfaceView: true } } } },
            ],
          },
        },
      }),
    );
    expect(events).toHaveLength(1);
    const view = events[0]?.interfaceViews?.[0] as { viewStatus: { code: number }; viewValue: { amount: string } };
    expect(view.viewStatus.code).toBe(0);
    expect(view.viewValue.amount).toBe('25.0000000000');
    // a token-standard transfer through the wallet: created, listed for the receiver, accepted, delivered
    const receiver = await onboard(sim.url, 'realdar-receiver');
    const now = Date.parse(((await (await fetch(`${sim.url}/simulator/admin/time`)).json()) as { now: string }).now) * 1000;
    const sent = await wok(sim.url, 'realdar-user', 'POST', '/v0/wallet/token-standard/transfers', {
      body: {
        receiver_party_id: receiver,
        amount: '10',
        description: 'after real DARs',
        expires_at: now + 3_600_000_000,
        tracking_id: 'realdar-1',
      },
    });
    const instruction = (sent.output as { transfer_instruction_cid: string }).transfer_instruction_cid;
    const pending = (await wok(sim.url, 'realdar-receiver', 'GET', '/v0/wallet/token-standard/transfers')).transfers as {
      contract_id: string;
    }[];
    expect(pending.map((t) => t.contract_id)).toEqual([instruction]);
    await wok(sim.url, 'realdar-receiver', 'POST', '/v0/wallet/token-standard/transfers/{contract_id}/accept', {
      path: `/v0/wallet/token-standard/transfers/${encodeURIComponent(instruction)}/accept`,
    });
    expect(Number((await wok(sim.url, 'realdar-receiver', 'GET', '/v0/wallet/balance')).effective_unlocked_qty)).toBe(10);
  });

  it('the demo package keeps working after the real Splice DARs were uploaded: create, transfer, split an Iou', async () => {
    const bank = await allocate(sim.url, 'RealDarBank');
    const alice = await allocate(sim.url, 'RealDarAlice2');
    const c = await submitTx(sim.url, [bank], [createIou(bank, bank, '100')]);
    const t = await submitTx(sim.url, [bank], [exercise(IOU, c.created[0]?.contractId as string, 'Iou_Transfer', { newOwner: alice })]);
    expect(t.created[0]?.createArgument.owner).toBe(alice);
    const s = await submitTx(sim.url, [alice], [exercise(IOU, t.created[0]?.contractId as string, 'Iou_Split', { splitAmount: '30' })]);
    expect(s.created.map((x) => x.createArgument.amount)).toEqual(['30.0000000000', '70.0000000000']);
    expect(
      acsCreated(await acs(sim.url, wildcard(alice)))
        .map((e) => e.contractId)
        .sort(),
    ).toEqual(s.created.map((x) => x.contractId).sort());
  });

  it('DARs built with different SDKs coexist: their own daml-prim 0.0.0 packages differ and are all accepted', async () => {
    const fresh = await startTestSim();
    try {
      const prim = (f: string) =>
        dar(f)
          .packages.filter((p) => p.name === 'daml-prim')
          .map((p) => p.packageId);
      // splice-util (SDK 3.5.2) first, then a token-standard API DAR (SDK 3.3.0) with a different daml-prim 0.0.0
      expect(prim('splice-util-0.1.7.dar')).not.toEqual(prim('splice-api-token-holding-v1-1.0.0.dar'));
      for (const f of ['splice-util-0.1.7.dar', 'splice-api-token-holding-v1-1.0.0.dar']) {
        const r = await postBytes(fresh.url, '/v2/dars', darBytes(f));
        expect(r.status, `${f}: ${r.text}`).toBe(200);
      }
      const ids = await packageIds(fresh.url);
      for (const id of [...prim('splice-util-0.1.7.dar'), ...prim('splice-api-token-holding-v1-1.0.0.dar')]) expect(ids).toContain(id);
    } finally {
      await fresh.dispose();
    }
  });

  it('a hostile DAR never stalls other requests: the demo Iou flow runs, request after request, while the worker reads it', async () => {
    const decoder = darDecoder();
    expect(decoder.pending).toBe(0);
    let settled = false;
    const upload = postBytes(sim.url, '/v2/dars/validate', hostile).finally(() => (settled = true));
    // the body is in and the worker is reading it (a reader on the event loop would never let this be observed)
    await until(() => decoder.pending > 0 || settled);
    expect(settled, 'the hostile DAR was read before anything else could be asked').toBe(false);
    const answeredWhileReading: string[] = [];
    const step = async <T>(name: string, p: Promise<T>): Promise<T> => {
      const r = await p;
      if (!settled && decoder.pending > 0) answeredWhileReading.push(name);
      return r;
    };
    const issuer = await step('allocate issuer', allocate(sim.url, 'HostileIssuer'));
    const owner = await step('allocate owner', allocate(sim.url, 'HostileOwner'));
    const created = await step('create Iou', submitTx(sim.url, [issuer], [createIou(issuer, issuer, '40')]));
    const moved = await step(
      'Iou_Transfer',
      submitTx(sim.url, [issuer], [exercise(IOU, created.created[0]?.contractId as string, 'Iou_Transfer', { newOwner: owner })]),
    );
    const held = await step('read ACS', acs(sim.url, wildcard(owner)));
    await step('version', call(sim.url, 'GET', '/v2/version'));
    expect(moved.created[0]?.createArgument.owner).toBe(owner);
    expect(acsCreated(held).map((e) => e.contractId)).toEqual([moved.created[0]?.contractId]);
    const r = await upload;
    // 24 packages named splice-amulet 0.1.21 with different ids: refused, after every one was decoded
    expect(r.status, r.text).toBe(400);
    expect(errorCode(r)).toBe('KNOWN_PACKAGE_VERSION');
    expect(answeredWhileReading).toEqual(['allocate issuer', 'allocate owner', 'create Iou', 'Iou_Transfer', 'read ACS', 'version']);
  }, 180_000);
});
