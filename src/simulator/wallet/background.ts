/**
 * The validator's background automation trigger. A real validator runs its automation continuously, not only when a
 * wallet request arrives; this timer runs `WalletApp.runAutomation()` every `backgroundIntervalSeconds` of wall time
 * (automation config, default 10 s, 0 = off). With static time nothing can become due between runs unless the
 * clock moves, so a run happens only when the clock was advanced since the previous one.
 *
 * - Runs only once the validator app is set up (first wallet request, demo seed, or an earlier run on this data
 *   dir), so a simulator used only for the Ledger API gets no wallet transactions.
 * - Never overlapping: the next tick is scheduled when the previous one has finished (`setTimeout`, not
 *   `setInterval`), and a run is synchronous; the app also refuses re-entrant runs.
 * - Errors are logged and retried on the next tick (the automation already isolates failing tasks).
 * - Started with the simulator (`index.ts`), stopped on close.
 */
import type { SimContext } from '../context.js';
import { errorText } from '../errors.js';

/** What the trigger needs from the validator app. */
export interface BackgroundAutomationTarget {
  readonly config: { readonly backgroundIntervalSeconds: number };
  /** True once the app's DSO / validator setup exists. */
  isSetUp(): boolean;
  runAutomation(): void;
}

export interface BackgroundAutomation {
  stop(): void;
  /** Number of completed runs (for tests and diagnostics). */
  readonly runs: number;
}

/** Granularity at which the trigger re-reads its interval (so a changed config takes effect within this time). */
const POLL_MS = 1_000;

const targets = new WeakMap<SimContext, BackgroundAutomationTarget>();

/** Registers the simulator's validator app as the target of its background trigger. */
export function setBackgroundAutomationTarget(sim: SimContext, target: BackgroundAutomationTarget): void {
  targets.set(sim, target);
}

export function startBackgroundAutomation(sim: SimContext): BackgroundAutomation {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let runs = 0;
  let lastRunMs = Date.now();
  let clockAtLastRun: bigint | undefined;

  const due = (target: BackgroundAutomationTarget, intervalMs: number): boolean => {
    if (intervalMs <= 0 || Date.now() - lastRunMs < intervalMs || !target.isSetUp()) return false;
    return !sim.clock.isStatic || sim.clock.nowMicros() !== clockAtLastRun;
  };

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    const target = targets.get(sim);
    const intervalMs = Math.round((target?.config.backgroundIntervalSeconds ?? 0) * 1000);
    if (target && due(target, intervalMs)) {
      lastRunMs = Date.now();
      try {
        target.runAutomation();
        runs += 1;
      } catch (err) {
        console.error('[simulator wallet] background automation run failed (retried on the next tick):', errorText(err));
      }
      if (sim.clock.isStatic) clockAtLastRun = sim.clock.nowMicros();
    }
    schedule(intervalMs > 0 ? Math.min(intervalMs, POLL_MS) : POLL_MS);
  };

  const schedule = (ms: number): void => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  schedule(POLL_MS);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    get runs() {
      return runs;
    },
  };
}
