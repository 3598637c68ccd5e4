/**
 * A prepared transaction (or onboarding, or offline request) belongs to the participant it was prepared on: the
 * profile that was active then and the participant id that participant reported. Confirming or executing it while
 * another profile is active — another tab or a profile switch in between — is refused before anything is signed or
 * sent, and a participant that now reports another id is refused before anything is sent.
 */
import type { LedgerClient } from '../ledger-client.js';
import { SigningRefusal } from '../signing/index.js';

/** The connection profile that is active now and its Ledger API client. */
export interface ActiveParticipant {
  profileId: string;
  profileName: string;
  client: LedgerClient;
}

export interface ParticipantBinding {
  profileId: string;
  profileName: string;
  /** As read from the participant (`GET /v2/parties/participant-id`) when the session was created. */
  participantId: string;
}

export async function bindParticipant(p: ActiveParticipant): Promise<ParticipantBinding> {
  return { profileId: p.profileId, profileName: p.profileName, participantId: (await p.client.participantId()).participantId };
}

/** Refuses (PARTICIPANT_CHANGED) when the active profile is not the one the session was bound to. Synchronous: nothing is read. */
export function checkSameProfile(bound: ParticipantBinding, active: Pick<ActiveParticipant, 'profileId' | 'profileName'>): void {
  if (bound.profileId !== active.profileId) {
    throw new SigningRefusal(
      'CONFLICT',
      'PARTICIPANT_CHANGED',
      `This was prepared on profile “${bound.profileName}” (participant ${bound.participantId}), but the active profile is now ` +
        `“${active.profileName}”. Nothing was signed or sent. Switch back to “${bound.profileName}” to confirm it, or prepare it again.`,
    );
  }
}

/** Refuses (PARTICIPANT_CHANGED) when the participant reached through the bound profile now reports another participant id. */
export function checkSameParticipant(bound: ParticipantBinding, participantIdNow: string): void {
  if (participantIdNow !== bound.participantId) {
    throw new SigningRefusal(
      'CONFLICT',
      'PARTICIPANT_CHANGED',
      `This was prepared for participant ${bound.participantId}, but profile “${bound.profileName}” now reaches participant ` +
        `${participantIdNow}. Nothing was sent; prepare it again.`,
    );
  }
}
