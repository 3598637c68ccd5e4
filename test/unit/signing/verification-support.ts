/**
 * What the prepared-transaction verification tests share: parties, the real Splice packages (and the test app's)
 * verified as from a participant into a database on disk, and accessors into a transaction's nodes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { PreparedTransaction, type Value } from '@canton-network/core-ledger-proto';
import { openAppDb } from '../../../src/services/app-db.js';
import { referenceTypes } from '../../support/reference-packages.js';
import { myAppPackage } from './fixtures.js';
import { must } from '../../support/must.js';

export const ALICE = 'alice::1220' + '11'.repeat(32);
export const BOB = 'bob::1220' + '22'.repeat(32);
export const MALLORY = 'mallory::1220' + '66'.repeat(32);

// the real Splice packages (and the test app's), fetched and verified as from a participant
/** Opens the types database before the file's tests and removes it after. */
export function useReferenceTypes(): ReturnType<typeof referenceTypes> {
  const dbDir = mkdtempSync(path.join(os.tmpdir(), 'verification-types-'));
  const db = openAppDb(dbDir);
  const types = referenceTypes(db);
  types.packages.add(myAppPackage.bytes, 'import');
  afterAll(() => {
    db.close();
    rmSync(dbDir, { recursive: true, force: true });
  });
  return types;
}

export function exerciseOf(tx: PreparedTransaction, nodeId: string) {
  const n = must(
    must(tx.transaction, 'tx.transaction').nodes.find((x) => x.nodeId === nodeId),
    'tx.transaction.nodes.find((x) => x.nodeId === nodeId)',
  );
  if (n.versionedNode.oneofKind !== 'v1' || n.versionedNode.v1.nodeType.oneofKind !== 'exercise') throw new Error('not an exercise');
  return n.versionedNode.v1.nodeType.exercise;
}
export function createOf(tx: PreparedTransaction, nodeId: string) {
  const n = must(
    must(tx.transaction, 'tx.transaction').nodes.find((x) => x.nodeId === nodeId),
    'tx.transaction.nodes.find((x) => x.nodeId === nodeId)',
  );
  if (n.versionedNode.oneofKind !== 'v1' || n.versionedNode.v1.nodeType.oneofKind !== 'create') throw new Error('not a create');
  return n.versionedNode.v1.nodeType.create;
}
export function setField(value: Value | undefined, path: string[], replacement: Value): void {
  let v = value;
  for (const [i, label] of path.entries()) {
    if (v?.sum.oneofKind !== 'record') throw new Error(`no record at ${label}`);
    const f = must(
      v.sum.record.fields.find((x) => x.label === label),
      'v.sum.record.fields.find((x) => x.label === label)',
    );
    if (i === path.length - 1) f.value = replacement;
    else v = f.value;
  }
}
