/**
 * Reading what an external party sends the validator: hex-encoded keys, hashes and signatures (the Splice endpoints'
 * encoding), and the root exercises and creates of the base64 prepared transactions it signed.
 */
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { fingerprintOf } from '../crypto/keys.js';
import type { Ed25519Key } from '../crypto/keys.js';
import { errorText } from '../errors.js';
import { loadProto } from '../proto.js';
import { WalletError } from './types.js';

/** A hex string of exactly `bytes` bytes, or a 400 naming the field. */
export function hexBytes(value: string, bytes: number, fieldName: string): Buffer {
  if (!/^[0-9a-fA-F]*$/.test(value) || value.length !== bytes * 2)
    throw new WalletError(400, `${fieldName} must be ${bytes} hex-encoded bytes (${bytes * 2} hex digits)`);
  return Buffer.from(value, 'hex');
}

export async function keyOf(publicKeyHex: string, fieldName = 'public_key'): Promise<Ed25519Key> {
  const raw = hexBytes(publicKeyHex, 32, `${fieldName} (hex-encoded Ed25519 public key)`);
  return { raw, fingerprint: await fingerprintOf(raw) };
}

/** Root exercise nodes of a prepared transaction (template entity + choice), for checking what a submission contains. */
export async function rootExercises(preparedB64: string): Promise<{ entity: string; choice: string }[]> {
  const { PreparedTransaction } = await loadProto();
  let pt: PreparedTransaction;
  try {
    pt = PreparedTransaction.fromBinary(Buffer.from(preparedB64, 'base64'));
  } catch (e) {
    throw new WalletError(400, `transaction is not a base64 PreparedTransaction: ${errorText(e)}`);
  }
  const roots = new Set(pt.transaction?.roots ?? []);
  const out: { entity: string; choice: string }[] = [];
  for (const n of pt.transaction?.nodes ?? []) {
    if (!roots.has(n.nodeId) || n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    if (t.oneofKind === 'exercise')
      out.push({ entity: `${t.exercise.templateId?.moduleName}:${t.exercise.templateId?.entityName}`, choice: t.exercise.choiceId });
  }
  return out;
}

/** Contract id (relative: no suffix yet) of the first create of `qn` in a prepared transaction. */
export async function createdContractIdPrefix(preparedB64: string, qn: string): Promise<string | undefined> {
  const { PreparedTransaction } = await loadProto();
  const pt = PreparedTransaction.fromBinary(Buffer.from(preparedB64, 'base64'));
  for (const n of pt.transaction?.nodes ?? []) {
    if (n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    if (t.oneofKind === 'create' && `${t.create.templateId?.moduleName}:${t.create.templateId?.entityName}` === qn)
      return t.create.contractId;
  }
  return undefined;
}
