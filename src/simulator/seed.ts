/** Demo seed data: parties and a handful of contracts, created once per data dir. */
import type { SimContext } from './context.js';
import type { Ledger } from './routes/index.js';

export const DEMO_PARTY_HINTS = ['Alice', 'Bob', 'Bank'] as const;

export function seedDemo(sim: SimContext, ledger: Ledger): void {
  if (sim.store.meta.get('demo_seeded') === '1') return;
  for (const hint of DEMO_PARTY_HINTS) {
    const party = `${hint}::${sim.namespace}`;
    if (!sim.store.party(party)) ledger.writer.allocateParty({ partyIdHint: hint });
  }
  sim.store.meta.set('demo_seeded', '1');
}
