/**
 * A transaction of a real package, described field by field: the real splice-test-token-v1 DAR is uploaded to the
 * simulator over HTTP, a create of its `Token` template is prepared, and the console — with no package of its own —
 * fetches the packages from the participant, verifies their ids and names every field from the real Daml-LF types.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDar } from '../../../src/daml-lf/index.js';
import { openAppDb, type AppDb } from '../../../src/services/app-db.js';
import { VerifiedPackages, verifyPreparedTransaction } from '../../../src/services/signing/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { REFERENCE_DARS } from '../../support/reference-packages.js';
import { must } from '../../support/must.js';

const DAR = path.join(REFERENCE_DARS, 'splice-test-token-v1-1.0.0.dar');
let sim: RunningSimulator;
let db: AppDb;
const dirs: string[] = [];
/** What beforeAll started, in order: a failing beforeAll leaves the rest unassigned. */
const closers: Array<() => unknown> = [];

async function post(p: string, body: BodyInit, type = 'application/json'): Promise<{ status: number; text: string }> {
  const res = await fetch(sim.url + p, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  const simDir = mkdtempSync(path.join(os.tmpdir(), 'real-dar-sim-'));
  const dbDir = mkdtempSync(path.join(os.tmpdir(), 'real-dar-console-'));
  dirs.push(simDir, dbDir);
  sim = await startSimulator({ dataDir: simDir, port: 0 });
  closers.push(() => sim.close());
  db = openAppDb(dbDir);
  closers.push(() => db.close());
});
afterAll(async () => {
  for (const close of closers) await close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a transaction of an uploaded real package', () => {
  it('is described field by field with the record field names of the real Daml-LF types', async () => {
    const bytes = readFileSync(DAR);
    const dar = readDar(new Uint8Array(bytes));
    const upload = await post('/v2/dars?vetAllPackages=true', bytes, 'application/octet-stream');
    expect(upload.status, upload.text).toBe(200);
    const alice = (
      JSON.parse((await post('/v2/parties', JSON.stringify({ partyIdHint: 'RealDarAlice' }))).text) as { partyDetails: { party: string } }
    ).partyDetails.party;
    const holding = {
      owner: alice,
      instrumentId: { admin: alice, id: 'TEST' },
      amount: '12.5',
      lock: null,
      meta: { values: { 'example.com/note': 'first token' } },
    };
    const prep = await post(
      '/v2/interactive-submission/prepare',
      JSON.stringify({
        commandId: `real-dar-${process.pid}`,
        actAs: [alice],
        commands: [
          { CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token', createArguments: { holding } } },
        ],
      }),
    );
    expect(prep.status, prep.text).toBe(200);

    const fetched: string[] = [];
    const packages = new VerifiedPackages(db);
    const { summary } = await verifyPreparedTransaction(JSON.parse(prep.text) as never, alice, {
      packages,
      fetch: async (id) => {
        fetched.push(id);
        return new Uint8Array(await (await fetch(`${sim.url}/v2/packages/${id}`)).arrayBuffer());
      },
    });
    expect(summary.mode).toBe('described');
    expect(summary.warnings).toEqual([]);
    expect(summary.headline).toBe('Create Splice.Testing.Tokens.TestTokenV1:Token');
    // the packages are the DAR's own, fetched from the participant and verified by their hash
    const realIds = new Map(dar.archives.map((a) => [a.packageId, a]));
    expect(summary.packages.map((p) => p.name).sort()).toEqual([
      'splice-api-token-holding-v1',
      'splice-api-token-metadata-v1',
      'splice-test-token-v1',
    ]);
    for (const p of summary.packages) expect(realIds.has(p.packageId)).toBe(true);
    expect(fetched).toContain(dar.main.packageId);

    const arg = must(must(summary.description.nodes[0], 'a described node').argument, 'its argument');
    expect(arg).toMatchObject({ kind: 'record', type: 'Splice.Testing.Tokens.TestTokenV1:Token' });
    const h = arg.kind === 'record' ? arg.fields[0] : undefined;
    expect(h?.name).toBe('holding');
    expect(h?.value).toEqual({
      kind: 'record',
      type: 'Splice.Api.Token.HoldingV1:HoldingView',
      fields: [
        { name: 'owner', value: { kind: 'party', type: 'Party', party: alice } },
        {
          name: 'instrumentId',
          value: {
            kind: 'record',
            type: 'Splice.Api.Token.HoldingV1:InstrumentId',
            fields: [
              { name: 'admin', value: { kind: 'party', type: 'Party', party: alice } },
              { name: 'id', value: { kind: 'scalar', type: 'Text', prim: 'Text', text: 'TEST' } },
            ],
          },
        },
        { name: 'amount', value: { kind: 'numeric', type: 'Numeric 10', value: '12.5000000000', scale: 10 } },
        { name: 'lock', value: { kind: 'optional', type: 'Optional Splice.Api.Token.HoldingV1:Lock', value: null } },
        {
          name: 'meta',
          value: {
            kind: 'record',
            type: 'Splice.Api.Token.MetadataV1:Metadata',
            fields: [
              {
                name: 'values',
                value: {
                  kind: 'textMap',
                  type: 'TextMap Text',
                  entries: [{ key: 'example.com/note', value: { kind: 'scalar', type: 'Text', prim: 'Text', text: 'first token' } }],
                },
              },
            ],
          },
        },
      ],
    });
  });
});
