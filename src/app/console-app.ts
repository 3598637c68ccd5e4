/**
 * Composition root shared by both shells (Electron main and the browser host): creates the
 * services, starts the embedded simulator in demo mode, and binds the contract's handlers.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createRouter, type Router } from '../ipc/router.js';
import { openAppDb, type AppDb } from '../services/app-db.js';
import { privateTree } from '../services/private-files.js';
import { ProfileService } from '../services/profiles.js';
import { KeychainSecretStore, type SecretStore } from '../services/secret-store.js';
import { LedgerClient } from '../services/ledger-client.js';
import { startSimulator, type RunningSimulator } from '../simulator/index.js';
import { createHandlers, createSubscriptionHandlers } from './handlers/index.js';
import { MAX_DAR_BYTES } from '../ipc/channels/packages.js';
import { APP_NAME, APP_VERSION } from './app-info.js';
import { AuditKey, auditKeyAccount, AuditLog, createSigningServices } from '../services/signing/index.js';
import { LockableFileSecretStore, SigningFlows } from '../services/signing-flows/index.js';
import { ExternalWallet, WalletService, WalletStore } from '../services/wallet/index.js';
import { WalletAutomation } from '../services/wallet/automation.js';
import { defaultWalletConfig } from '../simulator/wallet/app.js';
import { AdminAudit } from '../services/admin-audit.js';
import { jwtSubject } from '../common/jwt.js';
import type { ExportSink } from '../services/exports/delivery.js';

export interface ConsoleAppOptions {
  dataDir: string;
  demo: boolean;
  transport: 'electron' | 'browser-host';
  /** Keychain service name; tests pass a unique one so they never touch a user's entries. */
  keychainService?: string;
  secretStore?: SecretStore;
  /** Where exports go: the browser host's downloads or Electron's save dialog (absent: exports answer INTERNAL). */
  exportSink?: ExportSink;
  /** The embedded simulator's cache of built-in package archives (SimulatorOptions.archiveCacheDir). */
  archiveCacheDir?: string;
}

export interface ConsoleApp {
  router: Router;
  demoLedgerUrl: string | null;
  close(): Promise<void>;
}

/**
 * The audit log's key from the OS keychain (created on first start), one per data directory. Without a reachable
 * keychain the log still chains its entries, and Audit → Verify says they are not authenticated.
 */
async function loadAuditKey(db: AppDb, secrets: SecretStore, dataDir: string): Promise<AuditKey | null> {
  const logId = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 32);
  try {
    return await AuditKey.loadOrCreate(secrets, auditKeyAccount(logId), AuditLog.nextSeq(db));
  } catch (err) {
    console.warn(
      `Audit log: no audit key (${err instanceof Error ? err.message : String(err)}); entries are chained but not authenticated`,
    );
    return null;
  }
}

export async function startConsoleApp(opts: ConsoleAppOptions): Promise<ConsoleApp> {
  // the data directory and everything in it are the user's alone (0700 / 0600), also when an older version left them looser
  privateTree(opts.dataDir);
  let simulator: RunningSimulator | null = null;
  if (opts.demo) {
    simulator = await startSimulator({
      dataDir: path.join(opts.dataDir, 'simulator'),
      port: 0,
      seedDemo: true,
      consoleOnly: true,
      ...(opts.archiveCacheDir !== undefined ? { archiveCacheDir: opts.archiveCacheDir } : {}),
      // the console uploads DARs of at most MAX_DAR_BYTES: its own simulator takes nothing larger, and reads no more
      // than 64 MiB per entry, 256 MiB in all, out of one (the Splice DARs hold about 11 MB)
      settings: { maxDarBytes: MAX_DAR_BYTES, darUncompressed: { maxEntryBytes: 64 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 } },
    });
  }
  const db = openAppDb(opts.dataDir);
  const secrets = opts.secretStore ?? new KeychainSecretStore(opts.keychainService ?? 'canton-operator-console');
  // The passphrase-encrypted secret file: signing keys and, where the operator chooses it (no keychain), profile secrets.
  const fileStore = new LockableFileSecretStore(opts.dataDir);
  const profiles = new ProfileService(db, secrets, simulator?.url ?? null, fileStore);

  const clientFor = (profileId: string) =>
    new LedgerClient({ baseUrl: profiles.get(profileId).ledgerApiUrl, ...profiles.tokenSource(profileId) });

  // Signing keys: OS keychain by default (same keychain service as the profiles' tokens), or the passphrase-encrypted key file.
  const auditKey = await loadAuditKey(db, secrets, opts.dataDir);
  const signingServices = createSigningServices(db, { 'os-keychain': secrets, 'encrypted-file': fileStore }, 'os-keychain', { auditKey });
  const activeLedger = () => clientFor(profiles.active().id);
  // what signing binds its sessions to: the active profile and its participant
  const activeParticipant = () => {
    const p = profiles.active();
    return { profileId: p.id, profileName: p.name, client: clientFor(p.id) };
  };
  const signing = { services: signingServices, flows: new SigningFlows(signingServices, activeParticipant), fileStore };

  // Wallet: the active profile's validator API; in demo mode the embedded validator's operator runs its admin endpoints.
  const walletService = new WalletService({
    profile: () => profiles.active(),
    profileToken: (id) => profiles.token(id),
    refreshProfileToken: (id, rejected) => profiles.refreshToken(id, rejected),
    ledger: activeLedger,
    store: new WalletStore(db),
    demoOperatorUser: simulator ? defaultWalletConfig().validatorWalletUser : null,
  });
  const wallet = {
    service: walletService,
    external: new ExternalWallet({
      signing: signingServices,
      wallet: walletService,
      participant: activeParticipant,
      parties: () => signing.flows.parties(),
    }),
    automation: new WalletAutomation(walletService, () => profiles.active().kind === 'demo'),
  };

  // Administrative actions go to the same audit log as signing decisions, with the profile and token user that acted.
  const adminAudit = new AdminAudit({
    audit: () => signingServices.audit,
    actor: async () => {
      const p = profiles.active();
      const token = await profiles.token(p.id).catch(() => null);
      const sub = token ? jwtSubject(token) : null;
      return `${p.name}${sub ? ` (user ${sub})` : p.kind === 'demo' ? ' (no token: demo access)' : ' (no token)'}`;
    },
  });

  const deps = {
    adminAudit,
    info: { name: APP_NAME, version: APP_VERSION, transport: opts.transport, demoMode: opts.demo },
    profiles,
    dataDir: opts.dataDir,
    activeClient: () => {
      const p = profiles.active();
      return { profile: p, client: clientFor(p.id) };
    },
    clientFor,
    signing,
    externalPartyKeys: () => Promise.resolve(new Map(signingServices.keys.list().map((k) => [k.fingerprint, k.label] as const))),
    wallet,
    ...(opts.exportSink ? { exportSink: opts.exportSink } : {}),
  };
  const router = createRouter(createHandlers(deps), createSubscriptionHandlers(deps));

  return {
    router,
    demoLedgerUrl: simulator?.url ?? null,
    async close() {
      fileStore.lock();
      db.close();
      await simulator?.close();
    },
  };
}
