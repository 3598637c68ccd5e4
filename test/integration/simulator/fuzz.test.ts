/**
 * Fuzz: ≥10,000 malformed or mutated requests (seeded, deterministic). Every answer must be a
 * non-5xx: either a spec-valid success, a 400 text/plain decode error, or a valid JsCantonError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IOU, allocate, createIou, openApi, startTestSim, submitTx, wildcard } from './helpers.js';
import type { TestSim } from './helpers.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type J = null | boolean | number | string | J[] | { [k: string]: J };

describe('fuzzing the HTTP API', () => {
  let sim: TestSim;
  let seeds: { method: string; specPath: string; path: string; body?: J }[];
  beforeAll(async () => {
    sim = await startTestSim();
    const bank = await allocate(sim.url, 'Bank');
    const alice = await allocate(sim.url, 'Alice');
    const c = await submitTx(sim.url, [bank], [createIou(bank, alice, '10')]);
    const cid = c.created[0]?.contractId as string;
    const uf = { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS', eventFormat: wildcard(alice) } };
    seeds = [
      {
        method: 'POST',
        specPath: '/v2/commands/submit-and-wait',
        path: '/v2/commands/submit-and-wait',
        body: { commandId: 'f', actAs: [bank], commands: [createIou(bank, alice, '1')] },
      },
      {
        method: 'POST',
        specPath: '/v2/commands/submit-and-wait-for-transaction',
        path: '/v2/commands/submit-and-wait-for-transaction',
        body: {
          commands: {
            commandId: 'g',
            actAs: [alice],
            commands: [
              { ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: '1' } } },
            ],
          },
          transactionFormat: uf.includeTransactions,
        },
      },
      {
        method: 'POST',
        specPath: '/v2/commands/async/submit',
        path: '/v2/commands/async/submit',
        body: {
          commandId: 'h',
          actAs: [bank],
          commands: [
            {
              ExerciseByKeyCommand: {
                templateId: '#simulator-demo:Demo.Account:Account',
                contractKey: { bank, accountId: 'x' },
                choice: 'Account_Close',
                choiceArgument: {},
              },
            },
          ],
        },
      },
      { method: 'POST', specPath: '/v2/updates', path: '/v2/updates', body: { beginExclusive: 0, updateFormat: uf } },
      {
        method: 'POST',
        specPath: '/v2/updates/trees',
        path: '/v2/updates/trees',
        body: { beginExclusive: 0, filter: wildcard(bank), verbose: true },
      },
      {
        method: 'POST',
        specPath: '/v2/updates/update-by-offset',
        path: '/v2/updates/update-by-offset',
        body: { offset: 4, updateFormat: uf },
      },
      {
        method: 'POST',
        specPath: '/v2/updates/update-by-id',
        path: '/v2/updates/update-by-id',
        body: { updateId: c.updateId, updateFormat: uf },
      },
      {
        method: 'POST',
        specPath: '/v2/updates/get-updates-page',
        path: '/v2/updates/get-updates-page',
        body: { maxPageSize: 2, updateFormat: uf },
      },
      {
        method: 'POST',
        specPath: '/v2/state/active-contracts',
        path: '/v2/state/active-contracts',
        body: {
          activeAtOffset: 3,
          eventFormat: {
            filtersByParty: { [bank]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: IOU } } } }] } },
          },
        },
      },
      {
        method: 'POST',
        specPath: '/v2/state/active-contracts-page',
        path: '/v2/state/active-contracts-page',
        body: { eventFormat: { filtersForAnyParty: {} }, maxPageSize: 1 },
      },
      {
        method: 'POST',
        specPath: '/v2/events/events-by-contract-id',
        path: '/v2/events/events-by-contract-id',
        body: { contractId: cid, eventFormat: wildcard(alice) },
      },
      {
        method: 'POST',
        specPath: '/v2/contracts/contract-by-id',
        path: '/v2/contracts/contract-by-id',
        body: { contractId: cid, queryingParties: [alice] },
      },
      {
        method: 'POST',
        specPath: '/v2/commands/completions',
        path: '/v2/commands/completions',
        body: { parties: [bank], beginExclusive: 0 },
      },
      { method: 'POST', specPath: '/v2/parties', path: '/v2/parties', body: { partyIdHint: 'Fuzzy' } },
      {
        method: 'POST',
        specPath: '/v2/commands/submit-and-wait-for-reassignment',
        path: '/v2/commands/submit-and-wait-for-reassignment',
        body: {
          reassignmentCommands: {
            commandId: 'r',
            submitter: bank,
            commands: [{ command: { UnassignCommand: { value: { contractId: cid, source: 'a::1', target: 'b::2' } } } }],
          },
        },
      },
      {
        method: 'POST',
        specPath: '/v2/interactive-submission/prepare',
        path: '/v2/interactive-submission/prepare',
        body: {
          commandId: 'p',
          actAs: [alice],
          commands: [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Describe', choiceArgument: {} } }],
        },
      },
      {
        method: 'POST',
        specPath: '/v2/interactive-submission/executeAndWait',
        path: '/v2/interactive-submission/executeAndWait',
        body: {
          preparedTransaction: 'CgA=',
          partySignatures: {
            signatures: [
              {
                party: alice,
                signatures: [
                  {
                    format: 'SIGNATURE_FORMAT_RAW',
                    signature: 'AA==',
                    signedBy: '1220',
                    signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                  },
                ],
              },
            ],
          },
          submissionId: 's',
          hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        },
      },
      {
        method: 'POST',
        specPath: '/v2/parties/external/generate-topology',
        path: '/v2/parties/external/generate-topology',
        body: {
          synchronizer: 'x::1',
          partyHint: 'e',
          publicKey: {
            format: 'CRYPTO_KEY_FORMAT_RAW',
            keyData: Buffer.alloc(32, 7).toString('base64'),
            keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
          },
        },
      },
      {
        method: 'POST',
        specPath: '/v2/parties/external/allocate',
        path: '/v2/parties/external/allocate',
        body: { synchronizer: 'x::1', onboardingTransactions: [{ transaction: 'CAESAA==' }], multiHashSignatures: [] },
      },
      {
        method: 'GET',
        specPath: '/v2/updates/transaction-tree-by-offset/{offset}',
        path: `/v2/updates/transaction-tree-by-offset/4?parties=${encodeURIComponent(alice)}`,
      },
      { method: 'GET', specPath: '/v2/parties', path: '/v2/parties?pageSize=1' },
      { method: 'GET', specPath: '/v2/state/ledger-end', path: '/v2/state/ledger-end' },
    ];
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('never answers 5xx and always answers a spec shape (10,000 requests)', async () => {
    const rnd = mulberry32(20261123);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const randomString = (): string => {
      const alphabet = ['a', 'Z', '0', ':', '::', '#', '%', '"', '\\', '\u0000', '💥', ' ', '-', '.', '{', '['];
      return Array.from({ length: Math.floor(rnd() * 12) }, () => pick(alphabet)).join('');
    };
    const randomValue = (depth = 0): J => {
      const r = rnd();
      if (r < 0.12) return null;
      if (r < 0.22) return rnd() < 0.5;
      if (r < 0.4) return pick([0, -1, 1, 2 ** 53, -(2 ** 63), 1e300, 0.5, NaN, 4]);
      if (r < 0.65) return randomString();
      if (depth > 3) return {};
      if (r < 0.82) return Array.from({ length: Math.floor(rnd() * 3) }, () => randomValue(depth + 1));
      const o: Record<string, J> = {};
      for (let i = 0; i < Math.floor(rnd() * 3); i++)
        o[pick(['value', 'templateId', 'Empty', 'cumulative', randomString()])] = randomValue(depth + 1);
      return o;
    };
    const mutate = (v: J, depth = 0): J => {
      if (v === null || typeof v !== 'object' || depth > 6 || rnd() < 0.15) return randomValue();
      const copy: J = Array.isArray(v) ? [...v] : { ...v };
      const keys = Object.keys(copy);
      const r = rnd();
      if (keys.length > 0 && r < 0.7) {
        const k = pick(keys);
        if (Array.isArray(copy)) copy[Number(k)] = mutate(copy[Number(k)] as J, depth + 1);
        else if (rnd() < 0.2) Reflect.deleteProperty(copy, k);
        else copy[k] = mutate(copy[k] as J, depth + 1);
      } else if (!Array.isArray(copy)) copy[randomString() || 'x'] = randomValue();
      else copy.push(randomValue());
      return copy;
    };

    const schemaError = openApi().schema('JsCantonError');
    const failures: string[] = [];
    const TOTAL = 10_000;
    let next = 0;
    const statuses = new Map<number, number>();
    const one = async (): Promise<void> => {
      const seed = pick(seeds);
      const r = rnd();
      let path = seed.path;
      let method = seed.method;
      let body: string | undefined;
      let specPath: string | undefined = seed.specPath;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (r < 0.05) {
        path = `/v2/${randomString()}${pick(['', '/', '/%E0%A4%A', '?limit=-1'])}`;
        specPath = undefined;
      } else if (r < 0.1) {
        method = pick(['PUT', 'DELETE', 'PATCH', 'GET', 'POST']);
        if (method !== seed.method) specPath = undefined;
      } else if (r < 0.15) {
        path = `${seed.path}${seed.path.includes('?') ? '&' : '?'}limit=${pick(['x', '-1', '0', '1', '99999999999999999999', ''])}`;
      } else if (r < 0.18) {
        headers.authorization = pick([
          'Bearer',
          'Bearer a.b.c',
          'Basic xyz',
          `Bearer x.${Buffer.from('[]').toString('base64url')}.y`,
          `Bearer ${Buffer.from(randomString()).toString('base64url')}`,
          `Bearer a.${Buffer.from(randomString()).toString('base64url')}.c`,
        ]);
      }
      if (method !== 'GET' && seed.body !== undefined) {
        const b = rnd();
        if (b < 0.1) body = JSON.stringify(seed.body).slice(0, Math.floor(rnd() * 40));
        else if (b < 0.15) body = randomString();
        else if (b < 0.2) body = '';
        else body = JSON.stringify(mutate(seed.body));
      }
      let res: Response;
      try {
        res = await fetch(sim.url + path, { method, headers, ...(body !== undefined && method !== 'GET' ? { body } : {}) });
      } catch (e) {
        failures.push(`${method} ${path}: fetch failed ${(e as Error).message}`);
        return;
      }
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const ct = res.headers.get('content-type') ?? '';
      const where = `${method} ${path} body=${(body ?? '').slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
      if (res.status >= 500) return void failures.push(`5xx: ${where}`);
      if (res.status === 400 && ct.startsWith('text/plain')) return;
      if (res.status === 200 && method === 'GET' && seed.path === '/livez') return;
      if (!ct.includes('application/json')) return void failures.push(`not JSON: ${where}`);
      const json = JSON.parse(text) as unknown;
      if (res.status === 200) {
        if (specPath) {
          try {
            openApi().assertResponse(method, specPath, 200, json);
          } catch (e) {
            failures.push(`bad 200 shape: ${where}: ${(e as Error).message.slice(0, 300)}`);
          }
        }
        return;
      }
      if (!schemaError(json)) failures.push(`not a JsCantonError: ${where}`);
    };
    const worker = async (): Promise<void> => {
      while (next < TOTAL) {
        next++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    expect(failures.slice(0, 10)).toEqual([]);
    expect(next).toBeGreaterThanOrEqual(TOTAL);
    // the fuzzer reached both success and the error paths
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(0);
  }, 600_000); // a backstop only: 10,000 requests take ~30 s quiet, over 100 s on a loaded 2-core machine
});
