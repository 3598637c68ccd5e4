/**
 * The Offline requests tab (online side): import the signature responses of exported requests (k-of-n: each
 * response adds the signatures it carries) and execute a request once its threshold is met.
 */
import type { ExecuteMode, ExecutionResult, Refusal } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { pickedText } from './files.js';
import type { SigningData } from './signing-data.svelte.js';

export class OfflineRequests {
  /** The last refusal per request id (a response that did not fit, or an execution refused). */
  refusals = $state<Record<string, Refusal>>({});
  result = $state<ExecutionResult | null>(null);
  error = $state<IpcError | null>(null);
  mode = $state<ExecuteMode>('executeAndWaitForTransaction');

  constructor(private readonly data: SigningData) {}

  private fail = (error: IpcError) => {
    this.error = error;
  };

  async importResponse(event: Event, requestId: string): Promise<void> {
    const file = await pickedText(event);
    if (!file) return;
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.offline.importResponse', { requestId, text: file.text });
      if (r.status === 'refused') this.refusals = { ...this.refusals, [requestId]: r };
      else {
        const { [requestId]: _gone, ...rest } = this.refusals;
        this.refusals = rest;
        await this.data.loadPending();
      }
    }, this.fail);
  }

  async execute(requestId: string): Promise<void> {
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.offline.execute', { requestId, mode: this.mode });
      if (r.status === 'refused') this.refusals = { ...this.refusals, [requestId]: r };
      else {
        this.result = r;
        await this.data.loadPending();
      }
    }, this.fail);
  }
}
