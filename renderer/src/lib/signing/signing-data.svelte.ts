/**
 * What the Signing view's three tabs share: the local keys, the external parties they sign for, the pending
 * offline requests, and one busy flag (one signing step at a time, whichever tab started it).
 */
import { tick } from 'svelte';
import type { ConsoleClient } from '../../../../src/ipc/client.js';
import type { Response, SigningKey } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { asIpcError } from '../errors.js';

export type SigningParty = Response<'signing.parties'>['parties'][number];
export type PendingRequest = Response<'signing.offline.pending'>['requests'][number];

export class SigningData {
  keys = $state<SigningKey[]>([]);
  parties = $state<SigningParty[]>([]);
  pending = $state<PendingRequest[]>([]);
  loadError = $state<IpcError | null>(null);
  loaded = $state(false);
  busy = $state(false);

  constructor(readonly client: ConsoleClient) {}

  /** Keys, parties and pending requests; `then` runs after a successful read (to pick defaults). */
  async load(then?: () => void): Promise<void> {
    try {
      const [k, p] = await Promise.all([this.client.call('signing.keys.list', {}), this.client.call('signing.parties', {})]);
      this.keys = k.keys;
      this.parties = p.parties;
      this.loadError = null;
      then?.();
      await this.loadPending();
    } catch (err) {
      this.loadError = asIpcError(err);
    } finally {
      this.loaded = true;
    }
  }

  async loadPending(): Promise<void> {
    this.pending = (await this.client.call('signing.offline.pending', {})).requests;
  }

  /**
   * Runs one signing step with the busy flag set; a thrown error goes to `onerror` (the tab's error panel).
   */
  async run(step: () => Promise<void>, onerror: (error: IpcError) => void): Promise<void> {
    this.busy = true;
    try {
      await step();
    } catch (err) {
      onerror(asIpcError(err));
    } finally {
      this.busy = false;
    }
  }
}

/** Moves focus to the heading of the step just shown, so a screen reader announces it. */
export async function focusStep(): Promise<void> {
  await tick();
  document.querySelector<HTMLElement>('[data-step-focus]')?.focus();
}
