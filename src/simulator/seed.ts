/** Demo seed data: parties and a handful of contracts, created once per data dir (idempotent across restarts). */
import type { SimContext } from './context.js';
import type { Ledger } from './routes/index.js';
import { demoPackage } from './packages/demo.js';
import { seedWalletDemo } from './wallet/seed.js';

export const DEMO_PARTY_HINTS = ['Alice', 'Bob', 'Bank'] as const;

export function seedDemo(sim: SimContext, ledger: Ledger): void {
  if (sim.store.meta.get('demo_seeded') === '1') return;
  const party = (hint: string): string => `${hint}::${sim.namespace}`;
  for (const hint of DEMO_PARTY_HINTS) if (!sim.store.hasParty(party(hint))) ledger.writer.allocateParty({ partyIdHint: hint });
  const [alice, bob, bank] = [party('Alice'), party('Bob'), party('Bank')];
  const pkg = `#${demoPackage.name}`;
  const iou = `${pkg}:Demo.Iou:Iou`;
  let n = 0;
  const submit = (actAs: string[], commands: Parameters<Ledger['writer']['submitCommands']>[0]['commands']) =>
    ledger.writer.submitCommands({ commandId: `demo-seed-${++n}`, actAs, commands, workflowId: 'demo-seed' }, 'participant_admin');

  const r1 = submit(
    [bank],
    [
      {
        CreateCommand: {
          templateId: iou,
          createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1000.0', observers: [] },
        },
      },
      {
        CreateCommand: { templateId: iou, createArguments: { issuer: bank, owner: bob, currency: 'EUR', amount: '250.5', observers: [] } },
      },
    ],
  );
  const aliceIou = r1.tx.nodes[0]?.contractId as string;
  submit(
    [alice],
    [{ ExerciseCommand: { templateId: iou, contractId: aliceIou, choice: 'Iou_Split', choiceArgument: { splitAmount: '100.0' } } }],
  );
  submit(
    [bank],
    [
      {
        CreateCommand: {
          templateId: `${pkg}:Demo.Iou:IouProposal`,
          createArguments: { issuer: bank, owner: alice, currency: 'CHF', amount: '42.0' },
        },
      },
      {
        CreateCommand: {
          templateId: `${pkg}:Demo.Account:Account`,
          createArguments: { bank, holder: alice, accountId: 'ACC-001', label: 'Alice main' },
        },
      },
      {
        CreateCommand: {
          templateId: `${pkg}:Demo.Account:Account`,
          createArguments: { bank, holder: bob, accountId: 'ACC-002', label: 'Bob main' },
        },
      },
    ],
  );
  seedWalletDemo(sim, ledger.writer);
  sim.store.meta.set('demo_seeded', '1');
}
