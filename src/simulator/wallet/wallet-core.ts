/**
 * What the wallet's collaborators (offers, automation) need from the WalletApp. They depend on this
 * interface instead of the class so that app.ts can construct them without an import cycle.
 */
import type { SubmitResult } from '../ledger.js';
import type { ContractRow, LfValue } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import type { AutomationConfig } from './automation-config.js';
import type { TrafficMeter, Tracking, TxLogInput } from './app-store.js';
import type { OfferStatus, SpliceContract } from './types.js';

/** Validator app settings (`settings.wallet`); the automation fields (`AutomationConfig`) can be changed at run time. */
export interface WalletConfig extends AutomationConfig {
  /** The validator operator's wallet user (admin endpoints need it). */
  validatorWalletUser: string;
  /** Simulated mining round length (Splice: 10 minutes). */
  roundDurationSeconds: number;
  /** USD per amulet. */
  amuletPrice: string;
  /** Holding fee in amulet per amulet holding per round. */
  holdingFeeRate: string;
  /** USD per MB of traffic. */
  trafficPriceUsdPerMb: string;
  /** Amulet the DSO adds to the unclaimed development fund with each new round (`0` = none). */
  developmentFundPerRound: string;
}

export interface NewOfferRequest {
  receiver_party_id: string;
  amount: string;
  description: string;
  expires_at: number;
  tracking_id: string;
}

/** The transfer-offer operations automation drives (implemented by `TransferOffers`). */
export interface OfferOps {
  createOffer(user: string, req: NewOfferRequest): string;
  accept(user: string, contractId: string): string;
  closed(o: ContractRow, res: SubmitResult, status: OfferStatus): void;
}

export interface WalletCore {
  readonly config: WalletConfig;
  readonly offers: OfferOps;
  readonly dso: string;
  readonly validatorParty: string;
  amulets(party: string): ContractRow[];
  batchMergeUtility(validator?: string): ContractRow | undefined;
  buyTraffic(
    user: string,
    req: { receiving_validator_party_id: string; domain_id: string; traffic_amount: number; tracking_id: string; expires_at: number },
  ): string;
  contracts(party: string, qn: string): ContractRow[];
  contractJson(c: ContractRow): SpliceContract;
  exercise(
    actAs: string[],
    qn: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
    packageName?: string,
  ): { res: SubmitResult; result: LfValue };
  exerciseInterface(
    actAs: string[],
    interfaceId: string,
    contractId: string,
    choice: string,
    choiceArgument: LfRecord,
  ): { res: SubmitResult; result: LfValue };
  featuredAppRightOf(party: string): ContractRow | undefined;
  listUsers(): string[];
  log(partiesInvolved: string[], item: TxLogInput, res: SubmitResult): void;
  mergeContracts(party: string, qn: string): ContractRow[];
  openRound(): { cid: string; round: bigint };
  partyOf(user: string): string;
  preapprovalOf(receiver: string): ContractRow | undefined;
  preapprovalSend(user: string, req: { receiver_party_id: string; amount: string; deduplication_id: string; description?: string }): void;
  putTracking(kind: string, id: string, t: Tracking): void;
  rules(): string;
  runAutomation(): void;
  selectInputs(party: string, amount: bigint): string[];
  submit(actAs: string[], commands: unknown[]): SubmitResult;
  traffic(): TrafficMeter;
  trackingOf(kind: string, id: string): Tracking | undefined;
  userOfParty(party: string): string | undefined;
}
