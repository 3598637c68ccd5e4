/** What the engine needs from the ledger it runs against (the simulator's store, see ../../lf-submit.ts). */
import type { Json } from '../convert.js';

export interface StoredContract {
  contractId: string;
  packageId: string;
  packageName: string;
  /** `Module:Entity`. */
  qualifiedName: string;
  argument: Json;
  signatories: string[];
  observers: string[];
  keyHash?: string;
  synchronizerId: string;
}

export interface LedgerHost {
  /** A contract created before this transaction that is active (not archived, not unassigned), if any. */
  activeContract(contractId: string): StoredContract | undefined;
  /** The active contract with this key hash, if any. */
  contractByKey(keyHash: string): string | undefined;
  partyKnown(party: string): boolean;
  /** Ledger effective time of the transaction (microseconds). */
  readonly ledgerTime: bigint;
  /** actAs ∪ readAs: whose contracts the submission can see. */
  readonly readers: ReadonlySet<string>;
  /** Contracts disclosed to the submission (usable although no reader is a stakeholder). */
  readonly disclosed: ReadonlySet<string>;
  /** The package of `packageName` preferred for this submission (upgrades: the highest vetted version). */
  preferredPackage(packageName: string): string | undefined;
  /** All inputs of a transaction must be on one synchronizer. */
  useSynchronizer(synchronizerId: string): void;
  /** The id of the n-th contract created by this transaction. */
  contractIdFor(index: number): string;
  /** Canton's key hash of a contract key. */
  keyHash(packageName: string, qualifiedName: string, key: Json): string;
}
