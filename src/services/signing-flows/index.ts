/** Online/offline signing orchestration over the signing services (see flows.ts). */
export { SigningFlows } from './flows.js';
export {
  bindParticipant,
  checkSameParticipant,
  checkSameProfile,
  type ActiveParticipant,
  type ParticipantBinding,
} from './participant-binding.js';
export { BLIND_CONFIRMATION_WORD, type Outcome } from './context.js';
export { buildCommand } from './compose.js';
export { policyWire, summaryWire, topologyWire, type PolicyWire } from './wire.js';
export { LockableFileSecretStore } from './file-store.js';
