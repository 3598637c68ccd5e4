/**
 * The Onboard tab's flow: key and party hint (optionally more keys for k-of-n) → generate the topology on the
 * participant → local multi-hash check → review → sign and allocate, or export for an air-gapped key.
 */
import type { Refusal, Response } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { fieldIssues } from '../errors.js';
import { saveFile } from '../exports.svelte.js';
import { focusStep, type SigningData } from './signing-data.svelte.js';

type OnboardVerified = Extract<Response<'signing.onboard.prepare'>, { status: 'verified' }>;
export type OnboardStep =
  | { step: 'form' }
  | { step: 'review'; verified: OnboardVerified }
  | { step: 'refused'; refusal: Refusal }
  | { step: 'done'; partyId: string; keyLabel: string }
  | { step: 'exported'; partyId: string; fileName: string };

export class OnboardFlow {
  key = $state('');
  partyHint = $state('');
  observationOnly = $state(false);
  synchronizerId = $state('');
  extraKeys = $state<string[]>([]);
  signingThreshold = $state(1);
  step = $state<OnboardStep>({ step: 'form' });
  error = $state<IpcError | null>(null);

  /**
   * @param onallocated the new party's id (the Sign tab selects it); runs before the keys and parties are re-read
   */
  constructor(
    private readonly data: SigningData,
    private readonly onallocated: (partyId: string) => void,
  ) {}

  /** Keys that may join the namespace key for k-of-n. */
  get otherKeys() {
    return this.data.keys.filter((k) => k.fingerprint !== this.key);
  }
  get issues() {
    return fieldIssues(this.error, ['partyHint', 'fingerprint', 'signingThreshold', 'synchronizerId'] as const);
  }

  /** The namespace key is never also one of the further keys. */
  dropKeyFromExtras(): void {
    if (this.extraKeys.includes(this.key)) this.extraKeys = this.extraKeys.filter((f) => f !== this.key);
  }

  private fail = (error: IpcError) => {
    this.error = error;
  };

  async prepare(): Promise<void> {
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.onboard.prepare', {
        fingerprint: this.key,
        partyHint: this.partyHint,
        observationOnly: this.observationOnly,
        extraFingerprints: this.extraKeys,
        signingThreshold: this.extraKeys.length > 0 ? this.signingThreshold : 1,
        synchronizerId: this.synchronizerId,
      });
      this.step = r.status === 'verified' ? { step: 'review', verified: r } : { step: 'refused', refusal: r };
      await focusStep();
    }, this.fail);
  }

  async confirm(): Promise<void> {
    if (this.step.step !== 'review') return;
    const sessionId = this.step.verified.sessionId;
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.onboard.confirm', { sessionId });
      if (r.status === 'allocated') {
        this.step = { step: 'done', partyId: r.partyId, keyLabel: r.key.label };
        this.onallocated(r.partyId);
        this.partyHint = '';
        this.extraKeys = [];
        this.signingThreshold = 1;
      } else {
        this.step = { step: 'refused', refusal: r };
      }
      await this.data.load();
      await focusStep();
    }, this.fail);
  }

  /** Air-gapped key: the verified onboarding goes out as a request file instead of being signed here. */
  async exportRequest(): Promise<void> {
    if (this.step.step !== 'review') return;
    const sessionId = this.step.verified.sessionId;
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.onboard.offline.createRequest', { sessionId, ttlMinutes: 60 });
      if (r.status === 'created') {
        saveFile(this.data.client, r.fileName, r.text, 'Offline onboarding request');
        this.step = { step: 'exported', partyId: r.partyId, fileName: r.fileName };
      } else this.step = { step: 'refused', refusal: r };
      await focusStep();
    }, this.fail);
  }
}
