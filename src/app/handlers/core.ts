/** Handlers of the core channels: app info, profiles, dashboard. */
import type { AppInfo, Profile } from '../../ipc/contract.js';
import { toIpcError } from '../../ipc/errors.js';
import type { HandlersOf, SubscriptionHandlersOf } from './types.js';
import type { coreChannels, coreSubscriptions } from '../../ipc/channels/core.js';
import { fetchDashboard } from '../../services/dashboard.js';
import type { LedgerClient } from '../../services/ledger-client.js';
import type { ProfileService } from '../../services/profiles.js';
import { testConnection } from '../../services/auth/connection-test.js';

export interface HandlerDeps {
  info: AppInfo;
  profiles: ProfileService;
  activeClient: () => { profile: Profile; client: LedgerClient };
  /** A client for any profile (with that profile's token source), e.g. to test a profile that is not active. */
  clientFor: (profileId: string) => LedgerClient;
  /** The console's data directory; NDJSON exports go to its `exports/` folder. */
  dataDir?: string;
  /**
   * Seam for the signing service: namespace fingerprints of the keys in the console keystore → key label.
   * Parties whose namespace is one of them are shown as external. Optional until the keystore is wired.
   */
  externalPartyKeys?: () => Promise<Map<string, string>>;
  /** Records administrative actions in the audit log (absent: they are not recorded). */
  adminAudit?: import('../../services/admin-audit.js').AdminAudit;
  /** Signing services, the online/offline flows and the encrypted-file key backend (absent: signing channels answer INTERNAL). */
  signing?: {
    services: import('../../services/signing/index.js').SigningServices;
    flows: import('../../services/signing-flows/index.js').SigningFlows;
    fileStore: import('../../services/signing-flows/index.js').LockableFileSecretStore;
  };
}

export function coreHandlers(d: HandlerDeps): HandlersOf<typeof coreChannels> {
  return {
    'app.info': () => d.info,
    'profiles.list': () => ({ profiles: d.profiles.list(), activeId: d.profiles.activeId() }),
    'profiles.save': (req) => d.profiles.save(req),
    'profiles.delete': async ({ id }) => ({ deleted: await d.profiles.delete(id) }),
    'profiles.select': ({ id }) => d.profiles.select(id),
    'profiles.secretStores': () => d.profiles.secretStores(),
    'profiles.unlockSecretFile': ({ passphrase }) => d.profiles.unlockSecretFile(passphrase),
    'profiles.test': async ({ id }) =>
      testConnection({ profile: d.profiles.get(id), accessToken: () => d.profiles.accessToken(id), client: d.clientFor(id) }),
    'dashboard.snapshot': async () => {
      const { profile, client } = d.activeClient();
      return fetchDashboard(client, profile);
    },
  };
}

export function coreSubscriptionHandlers(d: HandlerDeps): SubscriptionHandlersOf<typeof coreSubscriptions> {
  return {
    'dashboard.live': ({ intervalMs }, emit) => {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      const tick = async () => {
        try {
          const { profile, client } = d.activeClient();
          const snapshot = await fetchDashboard(client, profile);
          if (!stopped) emit({ ok: true, snapshot });
        } catch (err) {
          if (!stopped) emit({ ok: false, error: toIpcError(err) });
        }
        if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
      };
      void tick();
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}
