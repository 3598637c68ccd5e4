/**
 * The Sign tab's flow: compose a create or exercise → prepare on the participant (the console decodes it and
 * recomputes the hash, refusing on a mismatch) → review → confirm and execute, or export an offline signing request.
 */
import type { ExecuteMode, ExecutionResult, Refusal, Response } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { fieldIssues } from '../errors.js';
import { saveFile } from '../exports.svelte.js';
import { focusStep, type SigningData } from './signing-data.svelte.js';

export type Verified = Extract<Response<'signing.prepare'>, { status: 'verified' }>;
export type SignStep =
  | { step: 'compose' }
  | { step: 'review'; verified: Verified }
  | { step: 'refused'; refusal: Refusal; review?: Verified }
  | { step: 'done'; result: ExecutionResult }
  | { step: 'exported'; requestId: string; fileName: string };

/** Empty text is no arguments; otherwise the text must parse, and the message says where it does not. */
export function jsonProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  try {
    JSON.parse(t);
    return null;
  } catch (err) {
    return `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export class SignFlow {
  party = $state('');
  fingerprint = $state('');
  kind = $state<'create' | 'exercise'>('create');
  templateId = $state('#simulator-demo:Demo.Iou:Iou');
  contractId = $state('');
  choice = $state('');
  argumentsJson = $state('');
  jsonError = $state<string | null>(null);
  step = $state<SignStep>({ step: 'compose' });
  requestThreshold = $state(1);
  error = $state<IpcError | null>(null);

  constructor(private readonly data: SigningData) {}

  /** The selected party's keys; the key choice follows the party. */
  get partyKeys() {
    return this.data.parties.find((p) => p.party === this.party)?.keys ?? [];
  }
  get composeIssues() {
    return fieldIssues(this.error, ['command', 'party', 'fingerprint'] as const);
  }

  /** Keeps the key choice among the party's keys (first one when the party changed). */
  followParty(): void {
    if (!this.partyKeys.some((k) => k.fingerprint === this.fingerprint)) this.fingerprint = this.partyKeys[0]?.fingerprint ?? '';
  }

  checkJson(): boolean {
    this.jsonError = jsonProblem(this.argumentsJson);
    return this.jsonError === null;
  }

  private fail = (error: IpcError) => {
    this.error = error;
  };

  async prepare(): Promise<void> {
    if (!this.checkJson()) return;
    this.error = null;
    await this.data.run(async () => {
      const { kind, templateId, argumentsJson } = this;
      const command =
        kind === 'create'
          ? { kind: 'create' as const, templateId, argumentsJson }
          : { kind: 'exercise' as const, templateId, contractId: this.contractId, choice: this.choice, argumentsJson };
      const r = await this.data.client.call('signing.prepare', { party: this.party, fingerprint: this.fingerprint, command });
      this.step = r.status === 'verified' ? { step: 'review', verified: r } : { step: 'refused', refusal: r };
      await focusStep();
    }, this.fail);
  }

  async confirm(mode: ExecuteMode, word: string): Promise<void> {
    if (this.step.step !== 'review') return;
    const verified = this.step.verified;
    this.error = null;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.confirm', {
        sessionId: verified.sessionId,
        mode,
        ...(word ? { blindConfirmation: word } : {}),
      });
      // prepared on another profile: the transaction stays pending there, so Back returns to it (after switching back)
      const review = r.status === 'refused' && r.reason === 'PARTICIPANT_CHANGED' ? { review: verified } : {};
      this.step = r.status === 'executed' ? { step: 'done', result: r } : { step: 'refused', refusal: r, ...review };
      await focusStep();
    }, this.fail);
  }

  async exportRequest(): Promise<void> {
    if (this.step.step !== 'review') return;
    const sessionId = this.step.verified.sessionId;
    const keyCount = this.partyKeys.length;
    await this.data.run(async () => {
      const r = await this.data.client.call('signing.offline.createRequest', {
        sessionId,
        ...(keyCount > 1 ? { threshold: Math.min(Math.max(1, this.requestThreshold), keyCount) } : {}),
      });
      if (r.status === 'refused') {
        this.step = { step: 'refused', refusal: r };
      } else {
        saveFile(this.data.client, r.fileName, r.text, 'Offline signing request');
        this.step = { step: 'exported', requestId: r.requestId, fileName: r.fileName };
        await this.data.loadPending();
      }
    }, this.fail);
  }

  async cancelReview(): Promise<void> {
    if (this.step.step === 'review') {
      await this.data.client.call('signing.discard', { sessionId: this.step.verified.sessionId }).catch(() => undefined);
    }
    this.step = { step: 'compose' };
    this.error = null;
  }

  /** Back from a refusal: to the review it came from (a profile switch), else to the form. */
  back(): void {
    const review = this.step.step === 'refused' ? this.step.review : undefined;
    this.step = review ? { step: 'review', verified: review } : { step: 'compose' };
  }
}
