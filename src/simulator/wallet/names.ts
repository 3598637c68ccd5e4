/** Qualified names of the `splice-amulet` templates the validator app uses, and small contract helpers. */
import type { ContractRow } from '../model.js';
import type { LfRecord } from '../packages/types.js';
import { AMULET_PACKAGE_NAME } from './coin.js';

export const T = {
  amulet: 'Splice.Amulet:Amulet',
  locked: 'Splice.Amulet:LockedAmulet',
  round: 'Splice.Round:OpenMiningRound',
  rules: 'Splice.AmuletRules:AmuletRules',
  offer: 'Splice.Wallet.TransferOffer:TransferOffer',
  accepted: 'Splice.Wallet.TransferOffer:AcceptedTransferOffer',
  install: 'Splice.Wallet.Install:WalletAppInstall',
  traffic: 'Splice.DecentralizedSynchronizer:MemberTraffic',
  preapproval: 'Splice.AmuletRules:TransferPreapproval',
  externalRules: 'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules',
  command: 'Splice.ExternalPartyAmuletRules:TransferCommand',
  counter: 'Splice.ExternalPartyAmuletRules:TransferCommandCounter',
  validatorRight: 'Splice.Amulet:ValidatorRight',
  validatorCoupon: 'Splice.Amulet:ValidatorRewardCoupon',
  appCoupon: 'Splice.Amulet:AppRewardCoupon',
  featured: 'Splice.Amulet:FeaturedAppRight',
} as const;

/** Lifetime of a TransferPreapproval (created or renewed by its provider). */
export const PREAPPROVAL_LIFETIME_MICROS = 90n * 24n * 3600n * 1_000_000n;

/** The create arguments of a stored contract. */
export const args = (c: ContractRow): LfRecord => (c.node.createArgument ?? {}) as LfRecord;
/** Template id by package name (`#splice-amulet:Module:Entity`). */
export const tid = (qn: string): string => `#${AMULET_PACKAGE_NAME}:${qn}`;
