/** DAR upload / validation over real HTTP: real DARs built with buildDar, every answer validated against the spec. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDar, encodeArchive, readArchive, writeZip } from '../../../src/daml-lf/index.js';
import { allocate, call, cantonError, nextCommandId, startTestSim, submitTx } from './helpers.js';
import type { TestSim } from './helpers.js';
import { assetsPackage, errorCode, fixtures, postBytes, typesPackage } from './dars-helpers.js';

const F = fixtures();
const packageIds = async (base: string): Promise<string[]> =>
  ((await call(base, 'GET', '/v2/packages')).json as { packageIds: string[] }).packageIds;

describe('DAR upload and validation', () => {
  let sim: TestSim;
  let bank: string, alice: string;
  beforeAll(async () => {
    sim = await startTestSim();
    bank = await allocate(sim.url, 'DarBank');
    alice = await allocate(sim.url, 'DarAlice');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('rejects corrupt, non-DAR, bad-hash and dependency-less DARs with specific errors and changes nothing', async () => {
    const before = await packageIds(sim.url);
    const notZip = await postBytes(sim.url, '/v2/dars', new TextEncoder().encode('definitely not a zip'));
    expect(notZip.status).toBe(400);
    expect(errorCode(notZip)).toBe('INVALID_DAR');
    const truncated = await postBytes(sim.url, '/v2/dars', F.v1.bytes.slice(0, F.v1.bytes.length - 40));
    expect(errorCode(truncated)).toBe('INVALID_DAR');
    const noManifest = await postBytes(sim.url, '/v2/dars', writeZip([{ name: 'x.dalf', data: new Uint8Array([1, 2, 3]) }]));
    expect(errorCode(noManifest)).toBe('INVALID_DAR');
    expect((noManifest.json as { context: Record<string, string> }).context.damlLfCode).toBe('MISSING_MANIFEST');
    // a DALF whose payload no longer hashes to its declared id
    const good = encodeArchive(assetsPackage('1.0.0', F.typesId));
    const tampered = good.bytes.slice();
    tampered[tampered.length - 5] = (tampered[tampered.length - 5] as number) ^ 0x01;
    const badHash = buildDar({ name: 'dar-test-assets', version: '1.0.0', archive: { ...good, bytes: tampered } }, [typesPackage()]);
    const bh = await postBytes(sim.url, '/v2/dars', badHash.bytes);
    expect(bh.status).toBe(400);
    expect(errorCode(bh)).toBe('DAR_PARSE_ERROR');
    expect(cantonError({ status: bh.status, contentType: 'application/json', text: bh.text, json: bh.json }).cause).toContain(
      good.packageId,
    );
    const missing = await postBytes(sim.url, '/v2/dars', F.missingDep.bytes);
    expect(errorCode(missing)).toBe('TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES');
    expect((missing.json as { cause: string }).cause).toContain(F.typesId);
    const v = await postBytes(sim.url, '/v2/dars/validate', F.missingDep.bytes);
    expect(errorCode(v)).toBe('TOPOLOGY_CANNOT_VET_DUE_TO_MISSING_PACKAGES');
    expect(await packageIds(sim.url)).toEqual(before);
  });

  it('uploads a DAR (idempotently), lists it, serves each archive and reports its status', async () => {
    const v = await postBytes(sim.url, '/v2/dars/validate', F.v1.bytes);
    expect(v.status).toBe(200);
    expect(await packageIds(sim.url)).not.toContain(F.v1.mainPackageId); // validate stores nothing
    const up = await postBytes(sim.url, '/v2/dars', F.v1.bytes);
    expect(up.status).toBe(200);
    const again = await postBytes(sim.url, '/v2/packages', F.v1.bytes);
    expect(again.status).toBe(200);
    const ids = await packageIds(sim.url);
    for (const id of F.v1.packageIds) expect(ids.filter((x) => x === id)).toHaveLength(1);
    for (const id of F.v1.packageIds) {
      const res = await fetch(`${sim.url}/v2/packages/${id}`);
      expect(res.status).toBe(200);
      expect(readArchive(new Uint8Array(await res.arrayBuffer())).packageId).toBe(id);
      const st = await call(sim.url, 'GET', '/v2/packages/{package-id}/status', { path: `/v2/packages/${id}/status` });
      expect((st.json as { packageStatus: string }).packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
    }
    const list = await call(sim.url, 'POST', '/v2/package-vetting/list', {
      body: { packageMetadataFilter: { packageNamePrefixes: ['dar-test-'] } },
    });
    const vp = (
      list.json as {
        vettedPackages: { synchronizerId: string; packages: { packageId: string; packageName?: string; packageVersion?: string }[] }[];
      }
    ).vettedPackages;
    expect(vp).toHaveLength(2); // vetAllPackages defaults to true: vetted on both synchronizers
    expect(vp[0]?.packages.map((p) => p.packageId).sort()).toEqual([...F.v1.packageIds].sort());
    expect(vp[0]?.packages.find((p) => p.packageId === F.v1.mainPackageId)?.packageVersion).toBe('1.0.0');
  });

  it('creates and archives a template of the uploaded package, checking arguments against its LF types', async () => {
    const tid = `${F.v1.mainPackageId}:Assets:Asset`;
    const args = {
      issuer: bank,
      owner: alice,
      amount: '12.5',
      tags: ['a', 'b'],
      color: 'Green',
      meta: { label: 'x', score: '3' },
      detail: { tag: 'Note', value: 'hello' },
      watchers: [],
    };
    const tx = await submitTx(sim.url, [bank], [{ CreateCommand: { templateId: tid, createArguments: args } }]);
    const created = tx.created[0] as {
      contractId: string;
      templateId: string;
      createArgument: Record<string, unknown>;
      signatories?: string[];
      observers?: string[];
    };
    expect(created.templateId).toBe(tid);
    expect(created.createArgument.amount).toBe('12.5000000000');
    expect(created.createArgument.note).toBeNull();
    expect((created as unknown as { signatories: string[] }).signatories).toEqual([bank]);
    expect((created as unknown as { observers: string[] }).observers).toEqual([alice]);
    // by package name too
    await submitTx(sim.url, [bank], [{ CreateCommand: { templateId: '#dar-test-assets:Assets:Asset', createArguments: args } }]);

    const bad = async (patch: Record<string, unknown>, expectPath: string): Promise<void> => {
      const r = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
        body: {
          commandId: nextCommandId(),
          actAs: [bank],
          commands: [{ CreateCommand: { templateId: tid, createArguments: { ...args, ...patch } } }],
        },
      });
      expect(r.status).toBe(400);
      const e = cantonError(r);
      expect(e.code).toBe('COMMAND_PREPROCESSING_FAILED');
      expect(e.cause).toContain(expectPath);
    };
    await bad({ amount: 'ten' }, 'amount');
    await bad({ color: 'Blue' }, 'color');
    await bad({ meta: { label: 'x' } }, 'meta.score');
    await bad({ detail: { tag: 'Nope', value: 1 } }, 'detail.tag');
    await bad({ tags: 'a' }, 'tags');
    await bad({ extra: 1 }, 'extra');
    await bad({ owner: 'not a party' }, 'owner');
    // no submitting party in the arguments: no signatory
    const carol = await allocate(sim.url, 'DarCarol');
    const noSig = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: { commandId: nextCommandId(), actAs: [carol], commands: [{ CreateCommand: { templateId: tid, createArguments: args } }] },
    });
    expect(cantonError(noSig).code).toBe('DAML_AUTHORIZATION_ERROR');

    // the choice runs the archive's Daml: controllers are authorized, the body is the encoder's ERROR stub
    const transfer = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [alice],
        commands: [
          {
            ExerciseCommand: {
              templateId: tid,
              contractId: created.contractId,
              choice: 'Asset_Transfer',
              choiceArgument: { newOwner: bank },
            },
          },
        ],
      },
    });
    const te = cantonError(transfer);
    expect(te.code).toBe('INTERPRETATION_USER_ERROR');
    expect(te.cause).toBe('Interpretation error: Error: User abort: choice Asset_Transfer is not executable');
    // Archive by a non-signatory fails, by the signatory works
    const wrong = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        commandId: nextCommandId(),
        actAs: [alice],
        commands: [{ ExerciseCommand: { templateId: tid, contractId: created.contractId, choice: 'Archive', choiceArgument: {} } }],
      },
    });
    expect(cantonError(wrong).code).toBe('DAML_AUTHORIZATION_ERROR');
    const arch = await submitTx(
      sim.url,
      [bank],
      [{ ExerciseCommand: { templateId: tid, contractId: created.contractId, choice: 'Archive', choiceArgument: {} } }],
    );
    expect(arch.events.some((e) => 'ExercisedEvent' in e || 'ArchivedEvent' in e)).toBe(true);
  });

  it('rejects a different package with a known name and version (KNOWN_PACKAGE_VERSION)', async () => {
    const other = buildDar({ ...assetsPackage('1.0.0', F.typesId), modules: [{ name: 'Other', dataTypes: [] }] }, [typesPackage()]);
    const r = await postBytes(sim.url, '/v2/dars', other.bytes);
    expect(errorCode(r)).toBe('KNOWN_PACKAGE_VERSION');
    expect(await packageIds(sim.url)).not.toContain(other.mainPackageId);
  });

  it('checks upgrades: an incompatible v3 is refused by validate and upload, the compatible v2 becomes preferred', async () => {
    const v3 = await postBytes(sim.url, '/v2/dars/validate', F.v3Incompatible.bytes);
    expect(errorCode(v3)).toBe('NOT_VALID_UPGRADE_PACKAGE');
    expect((v3.json as { cause: string }).cause).toContain('amount');
    const up3 = await postBytes(sim.url, '/v2/dars', F.v3Incompatible.bytes);
    expect(errorCode(up3)).toBe('NOT_VALID_UPGRADE_PACKAGE');
    expect(await packageIds(sim.url)).not.toContain(F.v3Incompatible.mainPackageId);

    expect((await postBytes(sim.url, '/v2/dars/validate', F.v2.bytes)).status).toBe(200);
    expect((await postBytes(sim.url, '/v2/dars', F.v2.bytes)).status).toBe(200);
    const pref = await call(sim.url, 'POST', '/v2/interactive-submission/preferred-packages', {
      body: { packageVettingRequirements: [{ packageName: 'dar-test-assets', parties: [bank, alice] }] },
    });
    expect((pref.json as { packageReferences: { packageId: string; packageVersion: string }[] }).packageReferences[0]).toMatchObject({
      packageId: F.v2.mainPackageId,
      packageVersion: '2.0.0',
    });
    const ver = await call(sim.url, 'GET', '/v2/interactive-submission/preferred-package-version', {
      path: `/v2/interactive-submission/preferred-package-version?package-name=dar-test-assets&parties=${encodeURIComponent(bank)}`,
    });
    expect(
      (ver.json as { packagePreference: { packageReference: { packageId: string } } }).packagePreference.packageReference.packageId,
    ).toBe(F.v2.mainPackageId);
    // #name now creates with v2 (memo accepted)
    const tx = await submitTx(
      sim.url,
      [bank],
      [
        {
          CreateCommand: {
            templateId: '#dar-test-assets:Assets:Asset',
            createArguments: {
              issuer: bank,
              owner: alice,
              amount: '1',
              tags: [],
              color: 'Red',
              meta: { label: 'm', score: 1 },
              detail: { tag: 'None_', value: {} },
              watchers: [],
              memo: 'v2',
            },
          },
        },
      ],
    );
    expect(tx.created[0]?.templateId).toBe(`${F.v2.mainPackageId}:Assets:Asset`);
  });
});
