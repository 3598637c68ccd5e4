/**
 * Token-standard interface implementations of the coin templates, with the views Splice's Amulet implementation
 * gives: instrument `{ admin: dso, id: "Amulet" }`, `amount` = the holding's initial amount (holding fees are not
 * deducted in the view), and the round / rate annotations in `meta`.
 */
import type { LfValue } from '../model.js';
import type { ChoiceContext, InterfaceImpl, LfRecord } from '../packages/types.js';
import { TOKEN_STANDARD } from '../packages/token-standard-types.js';
import { amuletAllocationFactoryAllocate } from './templates-allocation.js';
import { amuletTransferFactoryTransfer } from './templates-transfer-instruction.js';
import { AMULET_INSTRUMENT_ID, requireExpectedAdmin } from './token-context.js';
import { asText } from '../lf-text.js';

export { AMULET_INSTRUMENT_ID };
const META_PREFIX = 'amulet.splice.lfdecentralizedtrust.org';

/** Daml's `show` of a Decimal: trailing zeros dropped, at least one fractional digit. */
export const showDecimal = (v: LfValue | undefined): string => {
  const s = asText(v ?? '0');
  if (!s.includes('.')) return `${s}.0`;
  const t = s.replace(/0+$/, '');
  return t.endsWith('.') ? `${t}0` : t;
};

const holdingView = (a: LfRecord, lock: LfValue): LfRecord => ({
  owner: a.owner ?? null,
  instrumentId: { admin: a.dso ?? null, id: AMULET_INSTRUMENT_ID },
  amount: a.initialAmount ?? null,
  lock,
  meta: {
    values: {
      [`${META_PREFIX}/created-in-round`]: asText(a.createdAtRound ?? '0'),
      [`${META_PREFIX}/rate-per-round`]: showDecimal(a.ratePerRound),
    },
  },
});

/** `Splice.Amulet:Amulet` as a token-standard Holding (unlocked). */
export const amuletHolding: InterfaceImpl = { interface: TOKEN_STANDARD.holding, view: (a) => holdingView(a, null) };

/** `Splice.Amulet:LockedAmulet` as a Holding locked to its lock holders until the lock expires. */
export const lockedAmuletHolding: InterfaceImpl = {
  interface: TOKEN_STANDARD.holding,
  view: (a) =>
    holdingView(a, {
      holders: a.lockHolders ?? [],
      expiresAt: a.lockExpiresAt ?? null,
      expiresAfter: null,
      context: a.lockContext ?? null,
    }),
};

const factoryView = (a: LfRecord): LfRecord => ({ admin: a.dso ?? null, meta: { values: {} } });

/** `*_PublicFetch`: anyone (the `actor`) reads the factory's view, after checking the expected admin. */
const publicFetch = (ctx: ChoiceContext): LfValue => {
  requireExpectedAdmin(ctx, ctx.arg.expectedAdmin, ctx.contract.dso ?? null);
  return factoryView(ctx.contract);
};

/** `ExternalPartyAmuletRules` is the DSO's TransferFactory and AllocationFactory, as on Splice. */
export const externalRulesFactories: InterfaceImpl[] = [
  {
    interface: TOKEN_STANDARD.transferFactory,
    view: factoryView,
    choices: { TransferFactory_Transfer: amuletTransferFactoryTransfer, TransferFactory_PublicFetch: publicFetch },
  },
  {
    interface: TOKEN_STANDARD.allocationFactory,
    view: factoryView,
    choices: { AllocationFactory_Allocate: amuletAllocationFactoryAllocate, AllocationFactory_PublicFetch: publicFetch },
  },
];
