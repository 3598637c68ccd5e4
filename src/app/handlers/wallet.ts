/** Handlers of the wallet channels (issue #8): internal-user wallet, external-party wallet, live offer status. */
import type { walletChannels, walletSubscriptions } from '../../ipc/channels/wallet.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type { ExternalWallet, WalletService } from '../../services/wallet/index.js';
import type { WalletAutomation } from '../../services/wallet/automation.js';
import type { HandlersOf, SubscriptionHandlersOf } from './types.js';

export interface WalletDeps {
  wallet?: { service: WalletService; external: ExternalWallet | null; automation: WalletAutomation };
}

export function walletHandlers(d: WalletDeps): HandlersOf<typeof walletChannels> {
  const w = () => {
    if (!d.wallet) throw new ConsoleError('INTERNAL', 'The wallet services are not wired in this console');
    return d.wallet;
  };
  const ext = () => {
    const e = w().external;
    if (!e) throw new ConsoleError('INTERNAL', 'The external-party wallet needs the signing services, which are not wired in this console');
    return e;
  };

  return {
    'wallet.context': () => w().service.users.context(),
    'wallet.users.onboard': ({ name, partyId }) => w().service.users.onboard(name, partyId),
    'wallet.overview': ({ user }) => w().service.balance.overview(user),
    'wallet.history': ({ user, beginAfterId, pageSize }) => w().service.balance.history(user, beginAfterId, pageSize),
    'wallet.tap': ({ user, amount }) => w().service.balance.tap(user, amount),
    'wallet.offers': ({ user }) => w().service.transfers.offers(user),
    'wallet.offers.create': (req) => w().service.transfers.createOffer(req),
    'wallet.offers.act': ({ user, contractId, action }) => w().service.transfers.act(user, contractId, action),
    'wallet.preapproval.create': ({ user }) => w().service.transfers.createPreapproval(user),
    'wallet.preapproval.send': (req) => w().service.transfers.preapprovalSend(req),
    'wallet.traffic.buy': (req) => w().service.traffic.buyTraffic(req),
    'wallet.traffic.requests': ({ user }) => w().service.traffic.trafficRequests(user),
    'wallet.traffic.quote': (req) => w().service.traffic.trafficQuote(req),
    'wallet.preapproval.get': ({ user }) => w().service.transfers.ownPreapproval(user),
    'wallet.delegations': ({ user }) => w().service.delegations.list(user),
    'wallet.mergeDelegation.set': ({ user, action }) => w().service.delegations.setMerge(user, action),
    'wallet.automation.get': () => w().automation.get(),
    'wallet.automation.set': ({ settings }) => w().automation.set(settings),

    'wallet.external.parties': async () => ({ parties: await ext().parties() }),
    'wallet.external.preapproval.prepare': (req) => ext().preparePreapproval(req),
    'wallet.external.send.prepare': (req) => ext().prepareSend(req),
    'wallet.external.confirm': (req) => ext().confirm(req),
    'wallet.external.offline.create': (req) => ext().createOffline(req),
    'wallet.external.offline.submit': (req) => ext().submitOffline(req),
    'wallet.external.discard': ({ sessionId }) => ({ discarded: ext().discard(sessionId) }),
  };
}

export function walletSubscriptionHandlers(d: WalletDeps): SubscriptionHandlersOf<typeof walletSubscriptions> {
  return {
    'wallet.live': ({ user, intervalMs }, emit) => {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      const tick = async () => {
        try {
          if (!d.wallet) throw new ConsoleError('INTERNAL', 'The wallet services are not wired in this console');
          const offers = await d.wallet.service.transfers.offers(user);
          if (!stopped) emit({ ok: true, offers });
        } catch (err) {
          if (!stopped) emit({ ok: false, error: toIpcError(err) });
        }
        if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
      };
      void tick();
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}
