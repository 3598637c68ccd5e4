/**
 * The background automation trigger (`wallet/background.ts`): with static time, after the clock is advanced the
 * automation runs without any wallet request — a dust amulet is expired and an offer past its expiry is expired
 * (funds unlocked), both seen through the Ledger API only; with wall-clock time an offer expires by itself. With the
 * interval 0 nothing happens until a wallet request.
 * The interval is part of the automation config (default 10 s, optional in a PUT).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { staticClock, wallClock } from '../../../src/simulator/clock.js';
import type { SimContext } from '../../../src/simulator/context.js';
import { setBackgroundAutomationTarget, startBackgroundAutomation } from '../../../src/simulator/wallet/background.js';
import { acs, acsCreated, ledgerEnd } from './helpers.js';
import { advance, jwtFor, nowMicros, onboard, OPERATOR, startTestSim, wok } from './wallet-helpers.js';
import type { TestSim } from './wallet-helpers.js';

const ROUND = 600;
let sim: TestSim | undefined;
afterEach(async () => {
  await sim?.dispose();
  sim = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function eventually<T>(what: string, f: () => T | undefined | Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function exercisedChoices(base: string, party: string, after: number): Promise<string[]> {
  const r = await fetch(`${base}/v2/updates?limit=1000`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      beginExclusive: after,
      updateFormat: {
        includeTransactions: {
          eventFormat: { filtersByParty: { [party]: {} }, verbose: false },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      },
    }),
  });
  expect(r.status).toBe(200);
  const items = (await r.json()) as { update: { Transaction?: { value: { events: Record<string, { choice?: string }>[] } } } }[];
  return items
    .flatMap((i) => i.update.Transaction?.value.events ?? [])
    .flatMap((e) => Object.values(e).map((v) => v.choice ?? ''))
    .filter((c) => c !== '');
}

const amuletsOf = async (base: string, party: string) =>
  acsCreated(await acs(base, { filtersByParty: { [party]: {} }, verbose: false })).filter(
    (c) => c.templateId.endsWith(':Splice.Amulet:Amulet') && c.createArgument.owner === party,
  );

describe('background automation trigger', () => {
  it('with static time: advancing the clock makes the automation run without a wallet request (dust and offer expiry)', async () => {
    sim = await startTestSim({ staticTime: true, settings: { wallet: { backgroundIntervalSeconds: 0.2 } } as never });
    const base = sim.url;
    const frank = await onboard(base, 'frank');
    const gina = await onboard(base, 'gina');
    await wok(base, 'frank', 'POST', '/v0/wallet/tap', { body: { amount: '0.01' } }); // dust after 3 rounds
    await wok(base, 'frank', 'POST', '/v0/wallet/tap', { body: { amount: '50' } });
    await wok(base, 'frank', 'POST', '/v0/wallet/transfer-offers', {
      body: {
        receiver_party_id: gina,
        amount: '5',
        description: 'expires',
        expires_at: (await nowMicros(base)) + 60_000_000,
        tracking_id: 'bg-1',
      },
    });
    const start = await ledgerEnd(base);
    await sleep(600); // several ticks without a clock change: nothing to do, nothing submitted
    expect(await ledgerEnd(base)).toBe(start);

    await advance(base, 3 * ROUND);
    const choices = await eventually('the background run', async () => {
      const c = await exercisedChoices(base, frank, start);
      return c.includes('Amulet_Expire') && c.includes('TransferOffer_Expire') ? c : undefined;
    });
    expect(choices).toEqual(expect.arrayContaining(['Amulet_Expire', 'TransferOffer_Expire']));
    // the dust is gone and the offer's 5 are back with frank (two amulets: the change of 50 − 5 and the unlocked 5)
    const amulets = await amuletsOf(base, frank);
    expect(amulets.every((a) => Number(a.createArgument.initialAmount) > 0.01)).toBe(true);
    expect(amulets).toHaveLength(2);
  });

  it('interval 0 turns the trigger off: the automation then runs only before wallet requests; the interval is in the config', async () => {
    sim = await startTestSim({ staticTime: true, settings: { wallet: { backgroundIntervalSeconds: 0 } } as never });
    const base = sim.url;
    const frank = await onboard(base, 'frank');
    await wok(base, 'frank', 'POST', '/v0/wallet/tap', { body: { amount: '0.01' } });
    const start = await ledgerEnd(base);
    await advance(base, 3 * ROUND);
    await sleep(1_500);
    expect(await ledgerEnd(base)).toBe(start);
    expect(await amuletsOf(base, frank)).toHaveLength(1);

    const cfg = await fetch(`${base}/api/validator/v0/sim/automation`, { headers: { authorization: `Bearer ${jwtFor(OPERATOR)}` } });
    const json = (await cfg.json()) as Record<string, unknown>;
    expect(json.backgroundIntervalSeconds).toBe(0);
    // a PUT without the key gets the default (10 s); a negative interval is refused and changes nothing
    const { backgroundIntervalSeconds: _drop, ...rest } = json;
    const put = (body: unknown) =>
      fetch(`${base}/api/validator/v0/sim/automation`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${jwtFor(OPERATOR)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await put({ ...json, backgroundIntervalSeconds: -1 });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()) as object)).toEqual(['error']);
    const good = await put(rest);
    expect(good.status).toBe(200);
    expect(((await good.json()) as Record<string, unknown>).backgroundIntervalSeconds).toBe(10);

    // a wallet request runs the automation: the dust goes
    await wok(base, 'frank', 'GET', '/v0/wallet/balance');
    expect(await amuletsOf(base, frank)).toHaveLength(0);
  });

  it('with wall-clock time: an offer expires in the background, without a wallet request', async () => {
    sim = await startTestSim({ settings: { wallet: { backgroundIntervalSeconds: 0.2 } } as never });
    const base = sim.url;
    const frank = await onboard(base, 'frank');
    const gina = await onboard(base, 'gina');
    await wok(base, 'frank', 'POST', '/v0/wallet/tap', { body: { amount: '50' } });
    await wok(base, 'frank', 'POST', '/v0/wallet/transfer-offers', {
      body: {
        receiver_party_id: gina,
        amount: '5',
        description: 'soon',
        expires_at: (await nowMicros(base)) + 1_000_000,
        tracking_id: 'bg-wall',
      },
    });
    const start = await ledgerEnd(base);
    const choices = await eventually('the offer expiry', async () => {
      const c = await exercisedChoices(base, frank, start);
      return c.includes('TransferOffer_Expire') ? c : undefined;
    });
    expect(choices).toContain('TransferOffer_Expire');
  });

  it('a simulator whose wallet was never used gets no wallet transactions from the trigger', async () => {
    sim = await startTestSim({ settings: { wallet: { backgroundIntervalSeconds: 0.1 } } as never });
    const start = await ledgerEnd(sim.url);
    await sleep(700);
    expect(await ledgerEnd(sim.url)).toBe(start);
  });
});

describe('background trigger mechanics', () => {
  const target = (behaviour: () => void, setUp = true) => {
    let calls = 0;
    return {
      config: { backgroundIntervalSeconds: 0.05 },
      isSetUp: () => setUp,
      runAutomation: () => {
        calls += 1;
        behaviour();
      },
      get calls() {
        return calls;
      },
    };
  };

  it('a failing run is logged and retried on the next tick; stop ends the runs', async () => {
    const sim = { clock: wallClock() } as unknown as SimContext;
    let fail = true;
    const t = target(() => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
    });
    setBackgroundAutomationTarget(sim, t);
    const bg = startBackgroundAutomation(sim);
    await eventually('two runs', () => (t.calls >= 2 ? true : undefined));
    expect(bg.runs).toBeGreaterThanOrEqual(1); // the failed run does not count as completed
    bg.stop();
    const after = t.calls;
    await sleep(1_300);
    expect(t.calls).toBe(after);
  });

  it('static time: runs once, then only after the clock moved; nothing before the app is set up', async () => {
    const clock = staticClock(1_000_000n, () => undefined);
    const sim = { clock } as unknown as SimContext;
    const idle = target(() => undefined, false);
    setBackgroundAutomationTarget(sim, idle);
    const bg = startBackgroundAutomation(sim);
    await sleep(1_300);
    expect(idle.calls).toBe(0);
    const t = target(() => undefined);
    setBackgroundAutomationTarget(sim, t);
    await eventually('the first run', () => (t.calls === 1 ? true : undefined), 3_000);
    await sleep(400);
    expect(t.calls).toBe(1);
    clock.advance(1n);
    await eventually('the run after the advance', () => (t.calls === 2 ? true : undefined), 3_000);
    bg.stop();
  });
});
