/**
 * One read a view shows: its value, whether it is loading, its error, or that the user cancelled it.
 * Views had the same `$state` + `$effect` + sequence-number pattern in each file; this is that pattern
 * once. Starting a read cancels the one in flight (its answer can no longer overwrite a newer one),
 * and `cancel()` aborts the call in the main process too (ConsoleClient's AbortSignal), so the
 * participant stops working on it.
 */
import { untrack } from 'svelte';
import type { IpcError } from '../../../src/ipc/errors.js';
import { asIpcError } from './errors.js';

export type Fetch<T> = (signal: AbortSignal) => Promise<T>;

export class Loader<T> {
  value = $state<T | null>(null);
  loading = $state(false);
  error = $state<IpcError | null>(null);
  /** The last read was cancelled by the user (not an error: nothing went wrong). */
  cancelled = $state(false);

  private controller: AbortController | null = null;

  constructor(private readonly fetch: Fetch<T>) {}

  /**
   * Reads again; resolves with the value, or null when the read failed, was cancelled or superseded.
   * `quiet` (a refresh after the view's own write) keeps showing the current value without progress.
   */
  async load(options: { quiet?: boolean } = {}): Promise<T | null> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.loading = !options.quiet;
    this.error = null;
    this.cancelled = false;
    try {
      const value = await this.fetch(controller.signal);
      if (controller !== this.controller) return null;
      this.value = value;
      return value;
    } catch (err) {
      if (controller !== this.controller) return null;
      const error = asIpcError(err);
      if (error.code === 'CANCELLED') this.cancelled = true;
      else this.error = error;
      return null;
    } finally {
      if (controller === this.controller) {
        this.loading = false;
        this.controller = null;
      }
    }
  }

  /** Stops the read in flight, here and in the main process; the loader shows it as cancelled. */
  cancel(): void {
    this.controller?.abort();
  }

  /** Forgets the read in flight without marking anything (the view is going away or starting over). */
  reset(): void {
    const c = this.controller;
    this.controller = null;
    c?.abort();
    this.loading = false;
    this.error = null;
    this.cancelled = false;
  }
}

/**
 * Runs `read` now and again whenever `generation()` changes (the active profile changed), and stops
 * the loaders' reads when the view is destroyed. Call it while the component initialises.
 */
export function readOnGeneration(generation: () => number, read: () => void, loaders: Loader<unknown>[] = []): void {
  $effect(() => {
    generation();
    untrack(read);
    return () => {
      for (const l of loaders) l.reset();
    };
  });
}

/**
 * Starts a live read (a subscription, a timer) now and again whenever `deps()` changes — the active profile, a retry
 * counter — stopping the previous one first (the function `start` returns) and when the view is destroyed.
 * Only `deps` is tracked: state `start` reads does not restart it.
 */
export function liveOnChange(deps: () => unknown, start: () => () => void): void {
  $effect(() => {
    deps();
    return untrack(start);
  });
}
