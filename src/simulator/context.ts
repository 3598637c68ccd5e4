/** Everything a route handler needs: store, clock, identity, settings, commit notifications. */
import { EventEmitter } from 'node:events';
import type { Clock } from './clock.js';
import type { Durability } from './durability.js';
import type { LedgerStore } from './store/ledger-store.js';
import type { SimulatorSettings } from './settings.js';
import type { SynchronizerInfo } from './synchronizers.js';
import type { PackageRegistry } from './packages/registry.js';

export interface SimContext {
  store: LedgerStore;
  clock: Clock;
  participantId: string;
  /** Namespace (fingerprint) of the participant; local parties live in it. */
  namespace: string;
  synchronizers: [SynchronizerInfo, SynchronizerInfo];
  settings: SimulatorSettings;
  /** When group commits are durable; the durable ledger end readers see (durability.ts). */
  durability: Durability;
  /** Emits 'commit' (offset: number) after every durable commit. */
  events: EventEmitter;
  version: string;
  registry: PackageRegistry;
  /**
   * Users that exist with the ParticipantAdmin right until stored otherwise: `participant_admin`, and in demo mode
   * (no authentication) LocalNet's `ledger-api-user`, so clients configured for LocalNet work unchanged.
   */
  implicitAdmins: string[];
  /** Open WebSocket streams (for /simulator/admin/streams). */
  streams: Map<number, StreamInfo>;
  /** RFC 3339 time of the latest update (or now when the ledger is empty). */
  lastRecordTime(): string;
}

export const SIMULATOR_LEDGER_API_VERSION = '3.5.10';

export interface StreamInfo {
  id: number;
  channel: string;
  /** Messages sent so far. */
  sent: number;
  /** Bytes waiting in the socket buffer (ws.bufferedAmount). */
  bufferedAmount(): number;
  /** Highest bufferedAmount observed after a send. */
  maxBufferedAmount: number;
  /** True while the producer waits for the client (backpressure). */
  paused: boolean;
}
