/**
 * Types and small helpers shared by the validator app's modules (kept apart from `app.ts` so that the modules the
 * app is composed of do not import it back).
 */
import type { LfRecord } from '../packages/types.js';

/** An error answered with the Splice `ErrorResponse` shape. */
export class WalletError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SpliceContract {
  template_id: string;
  contract_id: string;
  payload: LfRecord;
  created_event_blob: string;
  created_at: string;
}

export type OfferStatus =
  | { status: 'created' | 'accepted' | 'completed'; contract_id: string; transaction_id: string }
  | { status: 'failed'; failure_kind: 'expired' | 'rejected' | 'withdrawn'; withdrawn_reason?: string };

/** Traffic (bytes) a transfer with `inputs` input holdings costs the validator: grows linearly with the inputs. */
export const trafficCostBytes = (inputs: number): number => 2_000 + 600 * inputs;

export const parseFloatStrict = (s: string): number | undefined => (/^\d+(\.\d{1,10})?$/.test(s) ? Number(s) : undefined);
