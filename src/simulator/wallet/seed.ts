/**
 * Wallet demo seed (with `seedDemo`): the demo parties Alice and Bob become wallet users `alice` and `bob` with
 * balances and one pending transfer offer from alice to bob. Runs once per data dir (`wallet_demo_seeded`).
 */
import type { SimContext } from '../context.js';
import type { LedgerWriter } from '../ledger.js';
import type { WalletConfig } from './app.js';
import { WalletApp } from './app.js';

export const WALLET_DEMO_USERS = { alice: 'Alice', bob: 'Bob' } as const;

export function seedWalletDemo(sim: SimContext, writer: LedgerWriter, config: Partial<WalletConfig> = {}): void {
  if (sim.store.meta.get('wallet_demo_seeded') === '1') return;
  const app = new WalletApp(sim, writer, config);
  app.onboard('alice', `${WALLET_DEMO_USERS.alice}::${sim.namespace}`, true);
  const bob = app.onboard('bob', `${WALLET_DEMO_USERS.bob}::${sim.namespace}`, true);
  app.tap('alice', '1000');
  app.tap('alice', '250');
  app.tap('bob', '500');
  const weekMicros = 7 * 24 * 3600 * 1_000_000;
  app.offers.createOffer('alice', {
    receiver_party_id: bob,
    amount: '42.5',
    description: 'Demo: lunch money',
    expires_at: Number(sim.clock.nowMicros()) + weekMicros,
    tracking_id: 'demo-offer-1',
  });
  sim.store.meta.set('wallet_demo_seeded', '1');
}
