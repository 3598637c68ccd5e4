/**
 * Signing services (plain Node, no Electron): keys, backups, policies, verification, signing, audit, offline files.
 * IPC handlers should use these exports only. Never expose KeyStore.signHash / exportSeeds / importSeed over IPC:
 * signatures come from SigningService, backups from exportKeyBackup/restoreKeyBackup.
 */
import type { AppDb } from '../app-db.js';
import type { SecretStore } from '../secret-store.js';
import { AuditLog } from './audit-log.js';
import type { AuditKey } from './audit-key.js';
import { KeyStore, type KeyBackend } from './key-store.js';
import { OfflineSigner } from './offline-signer.js';
import { PolicyStore } from './policy-store.js';
import { PolicyChecks } from './policy-checks.js';
import { SigningService } from './signing-service.js';
import { VerifiedPackages } from './verified-packages.js';

export * from './errors.js';
export { cantonFingerprint, externalPartyId, partyNamespace } from './fingerprint.js';
export {
  KeyStore,
  secretAccount,
  KeyMetadataSchema,
  KeyLabelSchema,
  PartyIdSchema,
  KeyBackendSchema,
  type KeyMetadata,
  type KeyBackend,
} from './key-store.js';
export { EncryptedFileSecretStore } from './encrypted-file-secret-store.js';
export {
  exportKeyBackup,
  previewKeyBackup,
  restoreKeyBackup,
  type BackupKeyInfo,
  type RestoreReport,
  type CarriedPolicy,
} from './key-backup.js';
export { exportPolicyFile, previewPolicyFile, importPolicyFile, type PolicyFileEntry } from './policy-file.js';
export {
  AuditLog,
  verifyAuditExport,
  type AuditEntry,
  type AuditRecord,
  type ChainVerification,
  type ChainProblem,
  type AuditAuthentication,
  type ExportVerification,
} from './audit-log.js';
export { AuditKey, auditKeyAccount } from './audit-key.js';
export {
  verifyPreparedTransaction,
  PrepareResponseSchema,
  type PrepareResponse,
  type TransactionSummary,
  type TypeSource,
} from './prepared-transaction.js';
export { VerifiedPackages, PackageVerificationError, type PackageFetcher, type PackageSource } from './verified-packages.js';
export { clearSignWire, type ClearSign, type ClearSignWire } from './clear-sign/index.js';
export { verifyTopology, GenerateTopologyResponseSchema, type GenerateTopologyResponse, type TopologySummary } from './topology.js';
export { PolicyStore, type AdoptOutcome } from './policy-store.js';
export { PolicyChecks, type Assessment } from './policy-checks.js';
export { comparePolicies, describeChanges, type PolicyChange } from './policy-compare.js';
export {
  SigningPolicySchema,
  DEFAULT_POLICY,
  evaluatePolicy,
  decide,
  requiredSignatures,
  policyDigest,
  type PolicyRecord,
  type SigningContext,
  type SigningPolicy,
  type PolicyDecision,
  type Channel,
} from './policy.js';
export {
  SigningService,
  executeSubmissionRequest,
  type SignPreparedRequest,
  type SignPreparedResult,
  type SignTopologyRequest,
  type SignTopologyResult,
  type PreviewResult,
  type JsonSignature,
  type JsonPartySignatures,
} from './signing-service.js';
export {
  createSigningRequest,
  parseSigningRequest,
  createSignatureResponse,
  importSignatureResponse,
  SignatureCollector,
  SigningRequestV1Schema,
  SigningRequestV2Schema,
  SigningRequestV3Schema,
  SIGNING_REQUEST_VERSION,
  type PolicyClaim,
  SigningRequestSchema,
  carriedArchives,
  SignatureResponseV1Schema,
  type SigningRequest,
  type SignatureResponse,
  type ThresholdStatus,
} from './offline-files.js';
export { OfflineSigner, type OfflineInspection } from './offline-signer.js';
export {
  createOnboardingRequest,
  parseOnboardingRequest,
  createOnboardingResponse,
  importOnboardingResponse,
  OnboardingRequestV1Schema,
  OnboardingResponseV1Schema,
  type OnboardingRequest,
  type OnboardingResponse,
} from './offline-onboarding-files.js';

export interface SigningServices {
  keys: KeyStore;
  policies: PolicyStore;
  audit: AuditLog;
  signing: SigningService;
  offline: OfflineSigner;
  packages: VerifiedPackages;
  /** The policy where nothing is signed here: confirmation screens (audited refusals) and execution of outside signatures. */
  checks: PolicyChecks;
}

/** Wires the services on one console database. `backends` e.g. `{ 'os-keychain': new KeychainSecretStore('canton-console') }`. */
export function createSigningServices(
  db: AppDb,
  backends: Partial<Record<KeyBackend, SecretStore>>,
  defaultBackend?: KeyBackend,
  /** The console's audit key (AuditKey.loadOrCreate); without it the log is chained by SHA-256 only. */
  opts: { auditKey?: AuditKey | null } = {},
): SigningServices {
  const keys = new KeyStore(db, backends, defaultBackend);
  const audit = new AuditLog(db, { key: opts.auditKey ?? null });
  const policies = new PolicyStore(db, audit);
  const packages = new VerifiedPackages(db);
  const signing = new SigningService(keys, policies, audit, packages);
  const checks = new PolicyChecks(keys, policies, signing, audit);
  const offline = new OfflineSigner(keys, signing, audit, packages, checks);
  return { keys, policies, audit, signing, offline, packages, checks };
}
