/**
 * Wallet users: a user is onboarded when the validator holds a `WalletAppInstall` for it (on-ledger, so the set of
 * users survives restarts with the ledger); onboarding also creates the ledger API user with actAs its party and the
 * party's ValidatorRight. Every operation first runs the app's lazy setup (`ensureSetUp`).
 */
import { randomUUID } from 'node:crypto';
import type { SimContext } from '../context.js';
import type { LedgerWriter } from '../ledger.js';
import { asText } from '../lf-text.js';
import type { ContractRow } from '../model.js';
import type { WalletLedger } from './ledger-access.js';
import { args, T, tid } from './names.js';
import { WalletError } from './types.js';
import type { WalletConfig } from './wallet-core.js';

/** The characters a Canton user id may contain. */
const USER_ID = /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/;

export class WalletUsers {
  constructor(
    private readonly sim: SimContext,
    private readonly writer: LedgerWriter,
    private readonly config: WalletConfig,
    private readonly ledger: WalletLedger,
    private readonly ensureSetUp: () => void,
  ) {}

  /** The user's `WalletAppInstall` (no set-up check: the set-up itself asks). */
  installOf(user: string): ContractRow | undefined {
    return this.ledger.contracts(this.ledger.validatorParty, T.install).find((c) => args(c).endUserName === user);
  }

  /** The party of an onboarded wallet user, or 404. */
  partyOf(user: string): string {
    this.ensureSetUp();
    const i = this.installOf(user);
    if (!i) throw new WalletError(404, `User ${user} is not onboarded to this validator's wallet`);
    return asText(args(i).endUserParty);
  }

  /** The wallet user whose party is `party`, if any. */
  userOfParty(party: string): string | undefined {
    const i = this.ledger.contracts(this.ledger.validatorParty, T.install).find((c) => args(c).endUserParty === party);
    return i ? asText(args(i).endUserName) : undefined;
  }

  isOnboarded(user: string): boolean {
    this.ensureSetUp();
    return this.installOf(user) !== undefined;
  }

  listUsers(): string[] {
    this.ensureSetUp();
    return this.ledger
      .contracts(this.ledger.validatorParty, T.install)
      .map((c) => asText(args(c).endUserName))
      .sort();
  }

  onboard(user: string, partyId?: string, createPartyIfMissing = false): string {
    this.ensureSetUp();
    if (!USER_ID.test(user)) throw new WalletError(400, `Invalid user name '${user}'`);
    const existing = this.installOf(user);
    if (existing) return asText(args(existing).endUserParty);
    const party = partyId === undefined ? this.freshParty(user) : this.existingParty(partyId, createPartyIfMissing);
    this.grantActAs(user, party);
    // the user's ValidatorRight (lets the validator collect the user's validator rewards); external parties get theirs
    // by signing the ExternalPartySetupProposal, and one party hosts at most one
    const { dso, validatorParty } = this.ledger;
    const needsRight =
      !this.sim.store.partyKeys(party) && !this.ledger.contracts(party, T.validatorRight).some((c) => args(c).user === party);
    this.ledger.submit(needsRight ? [validatorParty, party] : [validatorParty], [
      {
        CreateCommand: {
          templateId: tid(T.install),
          createArguments: { dsoParty: dso, validatorParty, endUserName: user, endUserParty: party },
        },
      },
      ...(needsRight
        ? [{ CreateCommand: { templateId: tid(T.validatorRight), createArguments: { dso, user: party, validator: validatorParty } } }]
        : []),
    ]);
    return party;
  }

  /** Allocates a party for a user onboarded without one, named after the user. */
  private freshParty(user: string): string {
    const ns = this.sim.namespace;
    const hint = user.replace(/[^a-zA-Z0-9:_ -]/g, '-').replaceAll('::', '-');
    let p = `${hint}::${ns}`;
    // a fresh party: add a suffix when the hint is already taken
    if (this.sim.store.hasParty(p) && user !== this.config.validatorWalletUser) p = `${hint}-${randomUUID().slice(0, 8)}::${ns}`;
    if (!this.sim.store.hasParty(p)) this.writer.allocateParty({ partyIdHint: p.split('::')[0] ?? p });
    return p;
  }

  /** A party the caller named: it must exist, or be allocatable here when `createPartyIfMissing`. */
  private existingParty(party: string, createPartyIfMissing: boolean): string {
    if (this.sim.store.hasParty(party)) return party;
    if (!createPartyIfMissing) throw new WalletError(400, `Party ${party} does not exist and createPartyIfMissing is false`);
    const [hint, ns] = party.split('::');
    if (ns !== this.sim.namespace || !hint)
      throw new WalletError(400, `Party ${party} cannot be created on this participant (namespace ${this.sim.namespace})`);
    this.writer.allocateParty({ partyIdHint: hint });
    return party;
  }

  /** The ledger API user, with actAs its party (kept rights are preserved, the right is not duplicated). */
  private grantActAs(user: string, party: string): void {
    const stored = this.sim.store.userGet(user) as { user: unknown; rights: unknown[] } | undefined;
    const right = { kind: { CanActAs: { value: { party } } } };
    this.sim.store.userPut(user, {
      user: stored?.user ?? {
        id: user,
        primaryParty: party,
        isDeactivated: false,
        metadata: { resourceVersion: '0', annotations: {} },
        identityProviderId: '',
      },
      rights: [...(stored?.rights ?? []).filter((r) => JSON.stringify(r) !== JSON.stringify(right)), right],
    });
  }

  offboard(user: string): void {
    this.ensureSetUp();
    const i = this.installOf(user);
    if (!i) throw new WalletError(404, `User ${user} is not onboarded`);
    if (user === this.config.validatorWalletUser) throw new WalletError(400, 'The validator operator cannot be offboarded');
    this.ledger.submit(
      [this.ledger.validatorParty],
      [{ ExerciseCommand: { templateId: tid(T.install), contractId: i.contractId, choice: 'Archive', choiceArgument: {} } }],
    );
    this.sim.store.userDelete(user);
  }
}
