/**
 * Bulk loading of a data dir (benchmarks, large demo ledgers): allocates parties through the ledger
 * writer, then writes `contracts` Iou creations through the store — each transaction interpreted by
 * the real interpreter and stored exactly as a submission would store it (update, contracts,
 * stakeholder index, completion) — many transactions per SQLite transaction instead of one HTTP call
 * and one fsync per command. Not exposed over HTTP.
 */
import { microsToIso } from './clock.js';
import { interpret } from './engine/interpreter.js';
import { updateIdFor } from './ids.js';
import { openSimContext } from './index.js';
import { LedgerWriter } from './ledger.js';
import type { StoredTransaction } from './model.js';

export interface BulkLoadOptions {
  dataDir: string;
  reset?: boolean;
  /** Party hints; the first is the issuer, contracts are owned round-robin by all of them. */
  partyHints: string[];
  contracts: number;
  /** Creates per ledger transaction (default 1: one update per contract). */
  perTransaction?: number;
  /** Ledger transactions per SQLite transaction (default 20,000). */
  batch?: number;
  onProgress?: (created: number) => void;
}

export interface BulkLoadResult {
  parties: string[];
  ledgerEnd: number;
  millis: number;
}

export function bulkLoad(opts: BulkLoadOptions): BulkLoadResult {
  const start = performance.now();
  const { sim, db } = openSimContext({ dataDir: opts.dataDir, reset: opts.reset ?? false });
  try {
    const writer = new LedgerWriter(sim);
    const parties = opts.partyHints.map((hint) => {
      const id = `${hint}::${sim.namespace}`;
      return sim.store.hasParty(id) ? id : writer.allocateParty({ partyIdHint: hint }).party;
    });
    const issuer = parties[0] as string;
    const perTx = opts.perTransaction ?? 1;
    const batch = opts.batch ?? 20_000;
    const template = '#simulator-demo:Demo.Iou:Iou';
    let created = 0;
    while (created < opts.contracts) {
      sim.store.tx(() => {
        for (let t = 0; t < batch && created < opts.contracts; t++) {
          const n = Math.min(perTx, opts.contracts - created);
          const now = sim.clock.nowMicros();
          const offset = sim.store.ledgerEnd() + 1;
          const effectiveAt = microsToIso(now);
          const cmds = Array.from({ length: n }, (_, i) => ({
            type: 'create' as const,
            templateId: template,
            createArguments: {
              issuer,
              owner: parties[(created + i) % parties.length] as string,
              currency: 'USD',
              amount: String(1 + ((created + i) % 1000)),
              observers: [],
            },
          }));
          const result = interpret(cmds, [issuer], [], {
            store: sim.store,
            registry: sim.registry,
            effectiveAt,
            idSeed: `${sim.participantId}:${offset}`,
            defaultSynchronizerId: sim.synchronizers[0].id,
          });
          sim.store.nextOffset();
          const updateId = updateIdFor(`${sim.participantId}:tx:${offset}`);
          const commandId = `bulk-${offset}`;
          const tx: StoredTransaction = {
            kind: 'transaction',
            offset,
            updateId,
            commandId,
            workflowId: 'bulk-load',
            effectiveAt,
            recordTime: effectiveAt,
            synchronizerId: result.synchronizerId,
            nodes: result.nodes,
            actAs: [issuer],
          };
          sim.store.insertUpdate(tx, now);
          for (const node of result.created) sim.store.insertContract(node, offset, result.synchronizerId, 'bulk-load');
          sim.store.insertCompletion({
            offset,
            commandId,
            userId: 'participant_admin',
            actAs: [issuer],
            updateId,
            synchronizerId: result.synchronizerId,
            recordTime: effectiveAt,
            deduplicationDurationMicros: 0,
          });
          created += n;
        }
      });
      opts.onProgress?.(created);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { parties, ledgerEnd: sim.store.ledgerEnd(), millis: performance.now() - start };
  } finally {
    db.close();
  }
}
