/**
 * Daml-LF engine benchmark: `npx tsx bench/lf-engine/run.ts [--n 200] [--warmup 30] [--cpu-prof DIR] [--data-root DIR]`.
 * Not part of `npm test`. The real `splice-test-token-v1` (../shared/reference/dars) is uploaded to an embedded
 * simulator; each round submits (`POST /v2/commands/submit-and-wait`, over HTTP) one `TransferFactory_Transfer`
 * through the TransferFactory interface with the rules disclosed, interpreted by the engine from the DAR's compiled
 * code — and, interleaved round by round as the baseline, one transfer of the built-in TypeScript Iou
 * (`Iou_Transfer`). Holdings and Ious are created beforehand (not timed). Targets (issue #17): interpreted transfer
 * p50 ≤ 10 ms and throughput ≥ 0.3 × the built-in Iou transfer's; the script exits 1 when missed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { startSimulator } from '../../src/simulator/index.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const argStr = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const N = arg('--n', 200);
const WARMUP = arg('--warmup', 30);
const CPU_PROF = argStr('--cpu-prof');
const DATA_ROOT = argStr('--data-root') ?? os.tmpdir();
const here = path.dirname(fileURLToPath(import.meta.url));
const darPath = path.resolve(here, '../../../shared/reference/dars/splice-test-token-v1-1.0.0.dar');

const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1';
const TRANSFER_FACTORY = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory';
const IOU = '#simulator-demo:Demo.Iou:Iou';

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};
const fmt = (n: number, d = 2): string => n.toFixed(d);

let cmd = 0;
async function post(base: string, p: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const t = await r.text();
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${t.slice(0, 400)}`);
  return JSON.parse(t) as Record<string, unknown>;
}
const submitTx = async (base: string, actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}) =>
  (
    (await post(base, '/v2/commands/submit-and-wait-for-transaction', {
      commands: { commandId: `bench-${++cmd}`, actAs, commands, ...extra },
      transactionFormat: {
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
        eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, {}])) },
      },
    })) as { transaction: { events: { CreatedEvent?: { contractId: string; templateId: string } }[] } }
  ).transaction.events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
const submitAndWait = (base: string, actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}) =>
  post(base, '/v2/commands/submit-and-wait', { commandId: `bench-${++cmd}`, actAs, commands, ...extra });

async function main(): Promise<number> {
  const dataDir = mkdtempSync(path.join(DATA_ROOT, 'lf-bench-'));
  const sim = await startSimulator({ dataDir, port: 0 });
  const base = sim.url;
  try {
    const up = await fetch(`${base}/v2/packages`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: readFileSync(darPath),
    });
    if (up.status !== 200) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const party = async (hint: string): Promise<string> =>
      ((await post(base, '/v2/parties', { partyIdHint: hint })) as { partyDetails: { party: string } }).partyDetails.party;
    const [admin, alice, bob, bank] = [await party('admin'), await party('alice'), await party('bob'), await party('bank')];
    const rulesCid = (
      await submitTx(base, [admin], [{ CreateCommand: { templateId: `${TOKEN}:TokenRules`, createArguments: { admin } } }])
    )[0]?.contractId as string;
    const ev = (await post(base, '/v2/events/events-by-contract-id', {
      contractId: rulesCid,
      eventFormat: {
        filtersByParty: {
          [admin]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] },
        },
      },
    })) as { created: { createdEvent: { createdEventBlob: string } } };
    const disclosed = [{ contractId: rulesCid, createdEventBlob: ev.created.createdEvent.createdEventBlob }];
    const rounds = WARMUP + N;
    // holdings and Ious for every round, 50 per transaction (not timed)
    const holdings: string[] = [];
    const ious: string[] = [];
    const holding = { owner: alice, instrumentId: { admin, id: 'TestToken' }, amount: '100.0', lock: null, meta: { values: {} } };
    for (let i = 0; i < rounds; i += 50) {
      const k = Math.min(50, rounds - i);
      holdings.push(
        ...(
          await submitTx(
            base,
            [admin, alice],
            Array.from({ length: k }, () => ({ CreateCommand: { templateId: `${TOKEN}:Token`, createArguments: { holding } } })),
          )
        ).map((c) => c.contractId),
      );
      ious.push(
        ...(
          await submitTx(
            base,
            [bank],
            Array.from({ length: k }, () => ({
              CreateCommand: {
                templateId: IOU,
                createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '100', observers: [] },
              },
            })),
          )
        ).map((c) => c.contractId),
      );
    }
    const transfer = (h: string) => ({
      ExerciseCommand: {
        templateId: TRANSFER_FACTORY,
        contractId: rulesCid,
        choice: 'TransferFactory_Transfer',
        choiceArgument: {
          expectedAdmin: admin,
          transfer: {
            sender: alice,
            receiver: bob,
            amount: '10.0',
            instrumentId: { admin, id: 'TestToken' },
            requestedAt: new Date(Date.now() - 1000).toISOString(),
            executeBefore: new Date(Date.now() + 3_600_000).toISOString(),
            inputHoldingCids: [h],
            meta: { values: {} },
          },
          extraArgs: { context: { values: {} }, meta: { values: {} } },
        },
      },
    });
    const lf: number[] = [];
    const iou: number[] = [];
    let profile: Session | undefined;
    for (let i = 0; i < rounds; i++) {
      if (i === WARMUP && CPU_PROF) {
        profile = new Session();
        profile.connect();
        await profile.post('Profiler.enable');
        await profile.post('Profiler.start');
      }
      let t = performance.now();
      await submitAndWait(base, [alice], [transfer(holdings[i] as string)], { disclosedContracts: disclosed });
      const a = performance.now() - t;
      t = performance.now();
      await submitAndWait(
        base,
        [alice],
        [{ ExerciseCommand: { templateId: IOU, contractId: ious[i], choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }],
      );
      const b = performance.now() - t;
      if (i >= WARMUP) {
        lf.push(a);
        iou.push(b);
      }
    }
    if (profile && CPU_PROF) {
      const { profile: p } = await profile.post('Profiler.stop');
      mkdirSync(CPU_PROF, { recursive: true });
      writeFileSync(path.join(CPU_PROF, 'lf-engine.cpuprofile'), JSON.stringify(p));
    }
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    const lfTput = 1000 / mean(lf);
    const iouTput = 1000 / mean(iou);
    const ratio = lfTput / iouTput;
    const p50 = pct(lf, 50);
    console.log(`rounds: ${N} (after ${WARMUP} warm-up), sequential submit-and-wait over HTTP`);
    console.log(`TransferFactory_Transfer (test token, engine): p50 ${fmt(p50)} ms, p95 ${fmt(pct(lf, 95))} ms, ${fmt(lfTput, 0)} tx/s`);
    console.log(
      `Iou_Transfer (built-in, TypeScript) baseline: p50 ${fmt(pct(iou, 50))} ms, p95 ${fmt(pct(iou, 95))} ms, ${fmt(iouTput, 0)} tx/s`,
    );
    const ok1 = p50 <= 10;
    const ok2 = ratio >= 0.3;
    console.log(`${ok1 ? 'PASS' : 'FAIL'}  interpreted transfer p50 ${fmt(p50)} ms | target ≤ 10 ms`);
    console.log(`${ok2 ? 'PASS' : 'FAIL'}  throughput ratio engine / built-in ${fmt(ratio)} | target ≥ 0.30`);
    return ok1 && ok2 ? 0 : 1;
  } finally {
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exit(await main());
