/** Built-in packages are served as real Daml-LF 2 archives that describe what the simulator enforces. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive, readDalf, typeToString } from '../../../src/daml-lf/index.js';
import { demoPackage } from '../../../src/simulator/packages/demo.js';
import { IOU, allocate, call, createIou, exercise, startTestSim, submitTx } from './helpers.js';
import type { TestSim } from './helpers.js';

describe('built-in packages as Daml-LF archives', () => {
  let sim: TestSim;
  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(async () => {
    await sim.dispose();
  });

  const fetchArchive = async (id: string): Promise<Uint8Array> => {
    const res = await fetch(`${sim.url}/v2/packages/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/octet-stream');
    return new Uint8Array(await res.arrayBuffer());
  };

  it('GET /v2/packages/{id} returns an Archive whose payload hashes to the package id', async () => {
    const ids = (await call(sim.url, 'GET', '/v2/packages')).json as { packageIds: string[] };
    expect(ids.packageIds.length).toBeGreaterThanOrEqual(1);
    for (const id of ids.packageIds) {
      const bytes = await fetchArchive(id);
      const a = readArchive(bytes);
      expect(a.packageId).toBe(id);
      expect(createHash('sha256').update(a.payload).digest('hex')).toBe(id);
    }
  });

  it('the archive lists the templates, fields, keys, choices and interfaces of demo.ts', async () => {
    const list = (await call(sim.url, 'POST', '/v2/package-vetting/list', { body: {} })).json as {
      vettedPackages: { packages: { packageId: string; packageName?: string }[] }[];
    };
    const id = list.vettedPackages[0]?.packages.find((p) => p.packageName === 'simulator-demo')?.packageId as string;
    const s = readDalf(await fetchArchive(id));
    expect(s.name).toBe(demoPackage.name);
    expect(s.version).toBe(demoPackage.version);
    const templates = s.modules.flatMap((m) => m.templates);
    expect(templates.map((t) => t.qualifiedName).sort()).toEqual(demoPackage.templates.map((t) => `${t.module}:${t.entity}`).sort());
    for (const def of demoPackage.templates) {
      const t = templates.find((x) => x.qualifiedName === `${def.module}:${def.entity}`);
      expect(t?.fields.map((f) => f.name)).toEqual(def.fields.map((f) => f.name));
      expect(t?.choices.map((c) => c.name).sort()).toEqual(['Archive', ...def.choices.map((c) => c.name)].sort());
      for (const c of def.choices) {
        const lc = t?.choices.find((x) => x.name === c.name);
        expect(lc?.consuming).toBe(c.consuming);
        expect(lc?.argFields?.map((f) => f.name)).toEqual(c.argument.map((f) => f.name));
      }
      expect(t?.implements).toEqual(def.implements.map((i) => `${id}:${i.interface}`));
      expect(t?.key !== undefined).toBe(def.key !== undefined);
    }
    const iou = templates.find((t) => t.qualifiedName === 'Demo.Iou:Iou');
    expect(iou?.fields.map((f) => `${f.name}: ${typeToString(f.type)}`)).toEqual([
      'issuer: Party',
      'owner: Party',
      'currency: Text',
      'amount: Numeric 10',
      'observers: [Party]',
    ]);
    const split = iou?.choices.find((c) => c.name === 'Iou_Split');
    expect(split && typeToString(split.returnType)).toBe('Demo.Iou:SplitResult');
    const account = templates.find((t) => t.qualifiedName === 'Demo.Account:Account');
    expect(account?.key && typeToString(account.key)).toBe('Demo.Account:AccountKey');
    const keyType = s.modules.flatMap((m) => m.dataTypes).find((d) => d.name === 'AccountKey');
    expect(keyType?.kind === 'record' && keyType.fields.map((f) => f.name)).toEqual(['bank', 'accountId']);
    const asset = s.modules.flatMap((m) => m.interfaces).find((i) => i.qualifiedName === 'Demo.Asset:Asset');
    expect(asset?.viewFields?.map((f) => f.name)).toEqual(['owner', 'description', 'amount']);
  });

  it('events carry the archive package id', async () => {
    const bank = await allocate(sim.url, 'PkBank');
    const alice = await allocate(sim.url, 'PkAlice');
    const tx = await submitTx(sim.url, [bank], [createIou(bank, alice, '5')]);
    const ids = ((await call(sim.url, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;
    const templateId = tx.created[0]?.templateId as string;
    expect(ids).toContain(templateId.split(':')[0]);
    const arch = await submitTx(sim.url, [bank], [exercise(IOU, tx.created[0]?.contractId as string, 'Archive')]);
    expect(arch.offset).toBeGreaterThan(tx.offset);
  });
});
