/**
 * Splice's featured-app `WalletUserProxy` (package splice-util-featured-app-proxies). A proxy choice is only
 * described when the transaction really contains the proxied exercise below it, on the same contract and with the
 * same argument — the description never relies on what the proxy template promises to do.
 * This file registers `WalletUserProxy_PublicFetch` and turns away proxy choices no recogniser describes; the proxied
 * transfer and instruction choices are matched by their own registrations through `proxiedExercise`.
 */
import type { Exercise, Value } from '@canton-network/core-ledger-proto';
import { field, partyOf, toPlain } from '../daml-value.js';
import { actsAlone, childExercises, defineRecogniser, notClear, ok, type MatchContext, type RootAction, row } from './registry.js';

export const WALLET_PROXY_MODULE = 'Splice.Util.FeaturedApp.WalletUserProxy';
export const WALLET_PROXY_TEMPLATE = 'WalletUserProxy';
const PREFIX = 'WalletUserProxy_';
const PUBLIC_FETCH = 'WalletUserProxy_PublicFetch';

export interface ProxyPublicFetchClearSign {
  kind: 'proxy-public-fetch';
  actor: string;
  provider: string;
  proxyCid: string;
}

const isProxy = (e: Exercise) => e.templateId?.moduleName === WALLET_PROXY_MODULE && e.templateId.entityName === WALLET_PROXY_TEMPLATE;
const same = (a: Value | undefined, b: Value | undefined) => JSON.stringify(toPlain(a)) === JSON.stringify(toPlain(b));

/** The wallet proxy exercise at the root, when it is one exercised by the signing party alone. */
function proxyRoot(root: RootAction, ctx: MatchContext): { e: Exercise; provider: string } | { warnings: string[] } | null {
  if (root.kind !== 'exercise' || !isProxy(root.exercise)) return null;
  const e = root.exercise;
  const provider = e.signatories[0];
  if (!provider) return { warnings: ['The wallet proxy contract has no signatory'] };
  if (!actsAlone(e, ctx.signingParty)) return { warnings: [`The wallet proxy choice is exercised by ${e.actingParties.join(', ')}`] };
  return { e, provider };
}

export type Proxied = { provider: string; proxied: Exercise; choiceArg: Value } | { warnings: string[] };

/**
 * The exercise a `WalletUserProxy_<choice>` root proxies, when `<choice>` is one of `choices`: null when the root is
 * not such a proxy choice, warnings when it is but cannot be clear-signed.
 */
export function proxiedExercise(root: RootAction, ctx: MatchContext, choices: readonly string[]): Proxied | null {
  const p = proxyRoot(root, ctx);
  if (p === null || 'warnings' in p) {
    // a malformed proxy is reported once, by the registration that turns away unknown proxy choices
    return null;
  }
  const { e, provider } = p;
  const proxiedChoice = e.choiceId.startsWith(PREFIX) ? e.choiceId.slice(PREFIX.length) : '';
  if (!choices.includes(proxiedChoice)) return null;
  const proxyArg = field(e.chosenValue, 'proxyArg');
  const cidValue = field(e.chosenValue, 'cid');
  const cid = cidValue?.sum.oneofKind === 'contractId' ? cidValue.sum.contractId : null;
  const user = partyOf(field(proxyArg, 'user'));
  const choiceArg = field(proxyArg, 'choiceArg');
  if (!cid || !user || !choiceArg) return { warnings: [`A ${e.choiceId} with missing fields cannot be clear-signed`] };
  if (user !== ctx.signingParty) return { warnings: [`The proxy choice is for ${user}, not the signing party`] };
  const proxied = childExercises(e, ctx).find(
    (c) => c.choiceId === proxiedChoice && c.contractId === cid && same(c.chosenValue, choiceArg),
  );
  if (!proxied) return { warnings: [`The transaction does not contain the ${proxiedChoice} the proxy choice names`] };
  return { provider, proxied, choiceArg };
}

export const proxyPublicFetch = defineRecogniser<ProxyPublicFetchClearSign>({
  kind: 'proxy-public-fetch',
  matchers: [
    (root, ctx) => {
      const p = proxyRoot(root, ctx);
      if (p === null) return null;
      if ('warnings' in p) return notClear(...p.warnings);
      const { e, provider } = p;
      if (e.choiceId !== PUBLIC_FETCH) return null;
      const actor = partyOf(field(e.chosenValue, 'actor'));
      if (actor !== ctx.signingParty) return notClear(`The proxy fetch is for ${actor ?? 'nobody'}, not the signing party`);
      if (e.consuming) return notClear('A consuming proxy fetch cannot be clear-signed');
      return ok({ kind: 'proxy-public-fetch', actor, provider, proxyCid: e.contractId });
    },
  ],
  counterparties: (c) => [c.provider],
  amounts: () => [],
  headline: (c) => `Read the wallet proxy contract of ${c.provider} as ${c.actor} (no ledger change)`,
  wire: (c) => ({
    title: 'Read wallet proxy (no ledger change)',
    fields: [row.party('Reader', c.actor), row.party('Wallet provider', c.provider), row.contract('Proxy contract', c.proxyCid)],
  }),
});

/** Last in the registry: a wallet proxy choice that no registration described. */
export function unknownProxyChoice(root: RootAction, ctx: MatchContext): string[] | null {
  const p = proxyRoot(root, ctx);
  if (p === null) return null;
  if ('warnings' in p) return p.warnings;
  return [`The wallet proxy choice ${p.e.choiceId} is not one the console describes`];
}
