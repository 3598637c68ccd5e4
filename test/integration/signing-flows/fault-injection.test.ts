/**
 * The simulator's fault injection over real HTTP: started with `faultInjection` (SimulatorOptions) it tampers with
 * its prepare answers round-robin, exactly as each kind says, while it keeps (and executes) only the honest
 * transaction; the admin endpoint switches it at runtime and refuses bad input without changing anything; the CLI
 * flag parses into the option. The console's refusals of these answers are tested in flows-online.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { TAMPER_KINDS, parseTamperKinds } from '../../../src/simulator/fault-injection.js';
import type { TamperKind } from '../../../src/simulator/fault-injection.js';
import {
  IOU,
  allocate,
  call as specCall,
  createIou,
  exercise,
  makeTempDir,
  repoRoot,
  startTestSim,
  submitTx,
} from '../simulator/helpers.js';
import type { TestSim } from '../simulator/helpers.js';
import { must } from '../../support/must.js';

interface Answer {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
}
interface Status {
  prepare: 'off' | TamperKind[];
  injections: Array<{ seq: number; kind: TamperKind; applied: boolean; honestHash: string; detail: string }>;
}

// the simulator-only admin endpoints and deliberately non-conformant answers are not in the OpenAPI spec
const call = (base: string, method: string, p: string, opts: { body?: unknown } = {}) =>
  specCall(base, method, p, { ...opts, validate: false });
/** `npm run sim`'s command: the prebuilt bundle (test/support/global-setup.ts built it). */
const cli = path.join(repoRoot, 'scripts/run.cjs');
const decode = (b64: string) => PreparedTransaction.fromBinary(Buffer.from(b64, 'base64'));
const transactionOf = (b64: string) => must(decode(b64).transaction, 'a transaction in the prepared answer');
const submitterOf = (b64: string) =>
  must(must(decode(b64).metadata, 'metadata in the prepared answer').submitterInfo, 'submitter info in the metadata');

describe('simulator fault injection (prepare answers)', () => {
  let sim: TestSim;
  let bank: string;
  let alice: string;
  let bob: string;
  let iou: string;
  let n = 0;
  const prepare = async (): Promise<Answer> => {
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
      body: { commandId: `fi-${++n}`, actAs: [alice], commands: [exercise(IOU, iou, 'Iou_Transfer', { newOwner: bob })] },
    });
    expect(r.status).toBe(200);
    return r.json as Answer;
  };
  const status = async () => (await call(sim.url, 'GET', '/simulator/admin/fault-injection')).json as Status;

  beforeAll(async () => {
    sim = await startTestSim({ seedDemo: true, faultInjection: { prepare: ['amount', 'receiver', 'hash'] } });
    bank = await allocate(sim.url, 'FiBank');
    alice = await allocate(sim.url, 'FiAlice');
    bob = await allocate(sim.url, 'FiBob');
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '25')]);
    iou = c.created[0]?.contractId as string;
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('applies the kinds given at start round-robin, each exactly as described, keeping the honest hash', async () => {
    expect((await status()).prepare).toEqual(['amount', 'receiver', 'hash']);
    const amount = await prepare();
    const receiver = await prepare();
    const hash = await prepare();
    const log = (await status()).injections;
    expect(log.map((x) => [x.kind, x.applied])).toEqual([
      ['amount', true],
      ['receiver', true],
      ['hash', true],
    ]);
    // amount: the created Iou's amount has a leading 9; the hash is the one of the honest transaction
    expect(amount.preparedTransactionHash).toBe(must(log[0], 'injection 0').honestHash);
    expect(await hashPreparedTransaction(amount.preparedTransaction, 'base64')).not.toBe(amount.preparedTransactionHash);
    const created = must(transactionOf(amount.preparedTransaction).nodes[1], 'node 1').versionedNode;
    expect(
      created.oneofKind === 'v1' && created.v1.nodeType.oneofKind === 'create' && JSON.stringify(created.v1.nodeType.create.argument),
    ).toContain('"numeric":"925');
    // receiver: the choice argument's new owner is somebody else
    const ex = must(transactionOf(receiver.preparedTransaction).nodes[0], 'node 0').versionedNode;
    const chosen =
      ex.oneofKind === 'v1' && ex.v1.nodeType.oneofKind === 'exercise' ? JSON.stringify(ex.v1.nodeType.exercise.chosenValue) : '';
    expect(chosen).not.toContain(bob);
    expect(chosen).toContain('fault-injected-party::');
    // hash: the transaction is honest, the hash is not
    const hashed = must(log[2], 'injection 2');
    expect(await hashPreparedTransaction(hash.preparedTransaction, 'base64')).toBe(hashed.honestHash);
    expect(hash.preparedTransactionHash).not.toBe(hashed.honestHash);
  });

  it('tampers structurally for every kind (or says it could not), and switches at runtime', async () => {
    const r = await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: [...TAMPER_KINDS] } });
    expect(r.status).toBe(200);
    for (const kind of TAMPER_KINDS) {
      const a = await prepare();
      const last = must((await status()).injections.at(-1), `an injection for ${kind}`);
      expect(last.kind).toBe(kind);
      expect(last.applied, kind).toBe(true);
      const consistent = a.preparedTransactionHash === last.honestHash && a.hashingSchemeVersion === 'HASHING_SCHEME_VERSION_V2';
      let txHash: string | null;
      try {
        txHash = await hashPreparedTransaction(a.preparedTransaction, 'base64');
      } catch {
        txHash = null; // truncated bytes may not decode at all
      }
      // never an honest, self-consistent answer
      expect(consistent && txHash === last.honestHash, kind).toBe(false);
      if (kind === 'input-dropped') expect(must(decode(a.preparedTransaction).metadata, 'metadata').inputContracts).toHaveLength(0);
      if (kind === 'extra-node') expect(transactionOf(a.preparedTransaction).roots).toEqual(['0', '2']);
      if (kind === 'submitter') expect(submitterOf(a.preparedTransaction).actAs).toHaveLength(2);
      if (kind === 'submitter-rehashed') {
        expect(txHash).toBe(a.preparedTransactionHash);
        expect(submitterOf(a.preparedTransaction).actAs).not.toContain(alice);
      }
      if (kind === 'scheme-v3') expect(a.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V3');
    }
    // off again: honest answers
    await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: 'off' } });
    const honest = await prepare();
    expect(await hashPreparedTransaction(honest.preparedTransaction, 'base64')).toBe(honest.preparedTransactionHash);
  });

  it('reports a kind that does not apply instead of pretending, and refuses bad configs without changing anything', async () => {
    await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: ['input-dropped'] } });
    // a create has no input contract to drop
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/prepare', {
      body: {
        commandId: `fi-${++n}`,
        actAs: [alice],
        commands: [
          {
            CreateCommand: {
              templateId: IOU,
              createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1', observers: [] },
            },
          },
        ],
      },
    });
    const a = r.json as Answer;
    expect(await hashPreparedTransaction(a.preparedTransaction, 'base64')).toBe(a.preparedTransactionHash);
    expect((await status()).injections.at(-1)).toMatchObject({
      kind: 'input-dropped',
      applied: false,
      detail: 'not applicable to this transaction',
    });

    for (const bad of [{ prepare: ['hash', 'nonsense'] }, { prepare: [] }, { prepare: 'on' }, { prepare: ['hash'], extra: 1 }]) {
      const res = await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await status()).prepare).toEqual(['input-dropped']);
    await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: 'off' } });
  });

  it('executes only what it really prepared: a tampered answer is not executable as such', async () => {
    await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: ['amount'] } });
    const a = await prepare();
    await call(sim.url, 'POST', '/simulator/admin/fault-injection', { body: { prepare: 'off' } });
    const r = await call(sim.url, 'POST', '/v2/interactive-submission/executeAndWait', {
      body: {
        preparedTransaction: a.preparedTransaction,
        partySignatures: { signatures: [] },
        submissionId: 'fi-exec',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('unknown to this participant');
  });

  it('refuses a bad option at start with a specific message', async () => {
    const bad = { prepare: ['hash', 'nonsense'] } as unknown as NonNullable<Parameters<typeof startTestSim>[0]>['faultInjection'];
    await expect(startTestSim({ faultInjection: bad })).rejects.toThrow(/Invalid faultInjection option: prepare/);
  });

  it('takes the kinds from the CLI flag, and names an unknown kind (exit 2, nothing started)', async () => {
    const bad = spawnSync(process.execPath, [cli, 'sim', '--data', makeTempDir(), '--fault-inject-prepare', 'hash,amout'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--fault-inject-prepare: unknown tamper kind 'amout'/);
    expect(bad.stdout).toBe('');
    expect(() => parseTamperKinds('')).toThrow(/unknown tamper kind ''/);

    const child = spawn(
      process.execPath,
      [cli, 'sim', '--data', makeTempDir(), '--port', '0', '--fault-inject-prepare', 'hash,input-dropped'],
      { cwd: repoRoot },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          const m = /listening on (\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
      });
      expect(((await call(url, 'GET', '/simulator/admin/fault-injection')).json as Status).prepare).toEqual(['hash', 'input-dropped']);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
