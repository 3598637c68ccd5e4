/** User rights as the console shows them (pure; unit-tested). */
import type { Right, RightKind } from '../../../../src/ipc/contract.js';

export const PARTY_RIGHT_KINDS = ['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const satisfies readonly RightKind[];

/** Every right kind, in the order the editor offers them. */
export const RIGHT_KINDS: readonly RightKind[] = [
  'CanActAs',
  'CanReadAs',
  'CanExecuteAs',
  'ParticipantAdmin',
  'IdentityProviderAdmin',
  'CanReadAsAnyParty',
  'CanExecuteAsAnyParty',
];

export const RIGHT_INFO: Record<RightKind, { label: string; help: string }> = {
  ParticipantAdmin: { label: 'Participant admin', help: 'Full administration of the participant (users, parties, packages, IDPs).' },
  IdentityProviderAdmin: { label: 'Identity provider admin', help: 'Administers users and parties of its own identity provider.' },
  CanActAs: { label: 'Act as', help: 'Submit commands on behalf of the party (implies read as).' },
  CanReadAs: { label: 'Read as', help: 'Read the ledger as the party.' },
  CanExecuteAs: { label: 'Execute as', help: 'Execute prepared (externally signed) submissions for the party.' },
  CanReadAsAnyParty: { label: 'Read as any party', help: 'Read the ledger as every party hosted on the participant.' },
  CanExecuteAsAnyParty: { label: 'Execute as any party', help: 'Execute prepared submissions for every party.' },
};

export function isPartyKind(kind: RightKind): kind is (typeof PARTY_RIGHT_KINDS)[number] {
  return (PARTY_RIGHT_KINDS as readonly RightKind[]).includes(kind);
}

export function rightParty(r: Right): string | null {
  return 'party' in r ? r.party : null;
}

/** Stable identity of a right (kind + party). */
export function rightKey(r: Right): string {
  const party = rightParty(r);
  return party === null ? r.kind : `${r.kind}:${party}`;
}

/** Builds a right from the editor's inputs, or explains what is missing. */
export function buildRight(kind: RightKind, party: string): { ok: true; right: Right } | { ok: false; message: string } {
  if (!isPartyKind(kind)) return { ok: true, right: { kind } as Right };
  const p = party.trim();
  if (p === '') return { ok: false, message: `${RIGHT_INFO[kind].label} needs a party` };
  return { ok: true, right: { kind, party: p } };
}

/** Global rights first (in editor order), then party rights by kind and party. */
export function sortRights(rights: readonly Right[]): Right[] {
  const order = (k: RightKind) => RIGHT_KINDS.indexOf(k) + (isPartyKind(k) ? 100 : 0);
  return [...rights].sort((a, b) => order(a.kind) - order(b.kind) || (rightParty(a) ?? '').localeCompare(rightParty(b) ?? ''));
}
