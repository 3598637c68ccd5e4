/**
 * Opt-in unlock window: a private seed kept in this process's memory for a bounded time after the user asked for it,
 * so signatures in that window skip the OS keychain round trip (≈ 6–10 ms over D-Bus per read on Linux).
 *
 * Trade-off (see ARCHITECTURE.md, security): while a key is unlocked its seed is in the main process's heap, where a
 * process memory dump or a debugger could read it; without a window (the default) the seed is in memory only for
 * the microseconds of one signature. So: nothing is unlocked unless asked, the window is at most MAX_UNLOCK_SECONDS,
 * the seed is zeroised (overwritten) on lock, on timeout, and on key deletion, and it is
 * never serialized — this module has no way to read a seed back out, only to sign with it.
 */
import { wipe } from './bytes.js';

export const MAX_UNLOCK_SECONDS = 3600;

interface Unlocked {
  seed: Uint8Array;
  until: number;
  timer: NodeJS.Timeout;
}

export class UnlockWindow {
  private readonly unlocked = new Map<string, Unlocked>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps `seed` (taken over: the caller must not wipe or reuse it) for `seconds`; replaces an earlier window. */
  hold(fingerprint: string, seed: Uint8Array, seconds: number): Date {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_UNLOCK_SECONDS)
      throw new RangeError(`An unlock window lasts 1 to ${MAX_UNLOCK_SECONDS} seconds`);
    this.lock(fingerprint);
    const until = this.now() + seconds * 1000;
    const timer = setTimeout(() => this.lock(fingerprint), seconds * 1000);
    // an unlocked key must not keep the process alive
    timer.unref();
    this.unlocked.set(fingerprint, { seed, until, timer });
    return new Date(until);
  }

  /** Runs `fn` with the unlocked seed, or returns undefined when the key is not (or no longer) unlocked. */
  async use<T>(fingerprint: string, fn: (seed: Uint8Array) => Promise<T>): Promise<T | undefined> {
    const u = this.unlocked.get(fingerprint);
    if (!u) return undefined;
    if (u.until <= this.now()) {
      this.lock(fingerprint);
      return undefined;
    }
    return fn(u.seed);
  }

  unlockedUntil(fingerprint: string): Date | null {
    const u = this.unlocked.get(fingerprint);
    return u && u.until > this.now() ? new Date(u.until) : null;
  }

  /** Zeroises and forgets the seed of one key; true when it was unlocked. */
  lock(fingerprint: string): boolean {
    const u = this.unlocked.get(fingerprint);
    if (!u) return false;
    clearTimeout(u.timer);
    wipe(u.seed);
    this.unlocked.delete(fingerprint);
    return true;
  }

  lockAll(): void {
    for (const fp of [...this.unlocked.keys()]) this.lock(fp);
  }
}
