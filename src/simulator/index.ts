/** Public entry point of the embedded Canton ledger simulator. */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { DEFAULT_USER, LOCALNET_USER } from './auth.js';
import { parseAuthConfig } from './auth-config.js';
import type { SimAuthConfig } from './auth-config.js';
import { loadJwksFile } from './auth-jwt.js';
import { createAccess } from './authz.js';
import { consoleOnlyRefusal } from './console-only.js';
import { FaultInjectionConfigSchema, faultInjectorOf } from './fault-injection.js';
import type { FaultInjectionConfig } from './fault-injection.js';
import { microsToIso, staticClock, wallClock } from './clock.js';
import type { Clock } from './clock.js';
import { SIMULATOR_LEDGER_API_VERSION } from './context.js';
import type { SimContext } from './context.js';
import { Durability, type SyncFile } from './durability.js';
import { fingerprint, randomHex } from './ids.js';
import { Router } from './router.js';
import { PackageRegistry } from './packages/registry.js';
import { createHttpServer } from './server.js';
import { defaultSettings } from './settings.js';
import type { SimulatorSettings } from './settings.js';
import { DB_FILE, openDatabase } from './store/open.js';
import type { Db } from './store/open.js';
import { LedgerStore } from './store/ledger-store.js';
import { WalCheckpoints } from './store/wal-checkpoints.js';
import { synchronizersFor } from './synchronizers.js';
import { registerAllRoutes } from './routes/index.js';
import { seedDemo } from './seed.js';
import { attachWebSockets } from './ws/index.js';
import { startBackgroundAutomation } from './wallet/background.js';

export interface SimulatorOptions {
  dataDir: string;
  /** 0 = any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  seedDemo?: boolean;
  reset?: boolean;
  staticTime?: boolean;
  /** Overrides of tunables such as `httpListMaxElementsLimit`. */
  settings?: Partial<SimulatorSettings>;
  /** Authentication mode (auth-config.ts); default `{ mode: 'none' }` (demo mode: no token needed, everything allowed). */
  auth?: SimAuthConfig;
  /**
   * Tampering with prepare answers for tests and demos (fault-injection.ts); default off. Switchable at runtime via
   * /simulator/admin/fault-injection.
   */
  faultInjection?: FaultInjectionConfig;
  /**
   * Answer only the console (the embedded demo simulator): refuse requests from web pages (Origin, Fetch Metadata)
   * and any Host but the loopback address and port (console-only.ts). Default false (`npm run sim` serves anyone).
   */
  consoleOnly?: boolean;
  /**
   * A directory for the built-in packages' encoded archives (`packages/builtin-archives.ts`), so a start need not
   * encode them. It must belong to one build of the code: the key covers the packages, not the encoder. Default none.
   */
  archiveCacheDir?: string;
  /** How the WAL is synced after a group commit (durability.ts); default fs.fdatasync. Tests pass one they hold back. */
  syncWal?: SyncFile;
  /** How the database file is synced after a WAL checkpoint (store/wal-checkpoints.ts); default fs.fdatasync. For tests. */
  syncDb?: SyncFile;
  /** WAL frames not yet copied that make a checkpoint due; default 64 MiB of frames (CHECKPOINT_WAL_BYTES). For tests. */
  checkpointFrames?: number;
}

export type { SimAuthConfig } from './auth-config.js';

export interface RunningSimulator {
  /** http://127.0.0.1:PORT */
  url: string;
  participantId: string;
  close(): Promise<void>;
}

/** Opens the data dir and builds the simulator context (no server): used by `startSimulator` and bulk loading. */
export function openSimContext(
  opts: Pick<
    SimulatorOptions,
    'dataDir' | 'reset' | 'staticTime' | 'settings' | 'archiveCacheDir' | 'syncWal' | 'syncDb' | 'checkpointFrames'
  >,
  /**
   * Checkpoints run by the simulator, their database sync off its thread (store/wal-checkpoints.ts). Off for bulk
   * loading, which writes in long synchronous transactions and leaves checkpoints to SQLite.
   */
  ownCheckpoints = false,
): {
  sim: SimContext;
  db: Db;
} {
  const db = openDatabase(opts.dataDir, opts.reset ?? false);
  const store = new LedgerStore(db);
  const seed = store.meta.getOrInit('participant_seed', () => randomHex(32));
  const namespace = fingerprint(`namespace:${seed}`);
  const participantId = `PAR::participant1::${namespace}`;

  // Static time is a property of the data dir once chosen; the flag turns it on.
  const isStatic = (opts.staticTime ?? false) || store.meta.get('static_time') !== undefined;
  let clock: Clock;
  if (isStatic) {
    const start = BigInt(store.meta.getOrInit('static_time', () => String(BigInt(Date.now()) * 1000n)));
    clock = staticClock(start, (t) => store.meta.set('static_time', String(t)));
  } else {
    // keep record times monotonic across restarts even if the system clock went backwards
    clock = wallClock(store.lastRecordTimeMicros() ?? 0n);
  }

  const sim: SimContext = {
    store,
    clock,
    participantId,
    namespace,
    synchronizers: synchronizersFor(seed),
    settings: { ...defaultSettings(), ...opts.settings },
    durability: new Durability(
      path.join(opts.dataDir, `${DB_FILE}-wal`),
      () => store.ledgerEnd(),
      opts.syncWal,
      ownCheckpoints ? new WalCheckpoints(db, path.join(opts.dataDir, DB_FILE), opts.syncDb, opts.checkpointFrames) : undefined,
    ),
    events: new EventEmitter(),
    version: SIMULATOR_LEDGER_API_VERSION,
    registry: new PackageRegistry(undefined, opts.archiveCacheDir !== undefined ? { archiveCacheDir: opts.archiveCacheDir } : {}),
    implicitAdmins: [DEFAULT_USER],
    streams: new Map(),
    lastRecordTime() {
      const t = store.lastRecordTimeMicros();
      return microsToIso(t ?? clock.nowMicros());
    },
  };
  sim.events.setMaxListeners(0);
  return { sim, db };
}

export async function startSimulator(opts: SimulatorOptions): Promise<RunningSimulator> {
  // validated before the data dir is touched, so a bad config changes nothing
  const authConfig = parseAuthConfig(opts.auth ?? { mode: 'none' });
  if (authConfig.mode === 'rs256') loadJwksFile(authConfig.jwksFile);
  const fi = FaultInjectionConfigSchema.safeParse(opts.faultInjection ?? { prepare: 'off' });
  if (!fi.success)
    throw new Error(
      `Invalid faultInjection option: ${fi.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  const faultInjection = fi.data;
  const { sim, db } = openSimContext(opts, true);
  if (authConfig.mode === 'none') sim.implicitAdmins.push(LOCALNET_USER);
  const participantId = sim.participantId;
  const router = new Router();
  const ledger = registerAllRoutes(router, sim);
  // one transaction, one fsync for the whole demo ledger (each of its commits becomes a savepoint): seeding a new data
  // dir was a third of the first start's time, one fsync per command
  if (opts.seedDemo) sim.store.tx(() => seedDemo(sim, ledger));
  faultInjectorOf(sim).configure(faultInjection);

  let access;
  try {
    access = createAccess(sim, authConfig);
  } catch (e) {
    db.close();
    throw e;
  }
  let port = 0;
  const guard = opts.consoleOnly ? (req: IncomingMessage) => consoleOnlyRefusal(req.headers, port) : undefined;
  const server = createHttpServer(router, access, () => sim.durability.settled(), guard, sim.settings.maxConnections);
  const ws = attachWebSockets(server, sim, access, guard);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const walletAutomation = startBackgroundAutomation(sim);
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    participantId,
    close() {
      closed ??= (async () => {
        walletAutomation.stop();
        ws.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // groups committed but not yet synced are made durable first
        await sim.durability.close();
        db.close();
      })();
      return closed;
    },
  };
}
