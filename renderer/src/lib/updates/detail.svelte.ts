/**
 * The Updates view's detail pane: which update it shows (by offset or id), the read of it, and closing it.
 * Opening another update while one is loading drops the older answer (a sequence token), so a slow read
 * never replaces the pane the user asked for last.
 */
import type { UpdateDetail } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { asIpcError } from '../errors.js';

export interface DetailTarget {
  offset?: number;
  updateId?: string;
}

export class DetailPane {
  open = $state(false);
  detail = $state<UpdateDetail | null>(null);
  loading = $state(false);
  error = $state<IpcError | null>(null);
  target = $state<DetailTarget | null>(null);
  private token = 0;

  constructor(private readonly read: (target: DetailTarget) => Promise<UpdateDetail>) {}

  /** The pane's heading: the loaded update's offset, else what was asked for. */
  title = $derived(
    this.detail
      ? `Update at offset ${this.detail.summary.offset}`
      : this.target?.updateId
        ? `Update ${this.target.updateId}`
        : `Update at offset ${this.target?.offset ?? ''}`,
  );

  async show(target: DetailTarget): Promise<void> {
    const token = ++this.token;
    this.open = true;
    this.target = target;
    this.loading = true;
    this.error = null;
    this.detail = null;
    try {
      const d = await this.read(target);
      if (token !== this.token) return;
      this.detail = d;
    } catch (err) {
      if (token === this.token) this.error = asIpcError(err);
    } finally {
      if (token === this.token) this.loading = false;
    }
  }

  close(): void {
    this.token++;
    this.open = false;
    this.detail = null;
    this.error = null;
    this.target = null;
  }
}
