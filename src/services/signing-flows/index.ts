/** Online/offline signing orchestration over the signing services (see flows.ts). */
export { SigningFlows, BLIND_CONFIRMATION_WORD, buildCommand, summaryWire, topologyWire, type Outcome } from './flows.js';
export { LockableFileSecretStore } from './file-store.js';
