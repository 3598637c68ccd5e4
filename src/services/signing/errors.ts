/** Refusals of the signing services: a ConsoleError (so IPC shows code + message) plus a machine-readable reason. */
import { ConsoleError, type IpcErrorCode } from '../../ipc/errors.js';

export type SigningRefusalReason =
  // passphrase-protected files
  | 'WRONG_PASSPHRASE'
  | 'FILE_ALTERED'
  | 'UNKNOWN_FILE_VERSION'
  | 'NOT_A_VALID_FILE'
  | 'WEAK_PASSPHRASE'
  | 'LOCKED'
  | 'UNSUPPORTED_KDF'
  // transaction verification
  | 'UNDECODABLE_TRANSACTION'
  | 'UNSUPPORTED_HASHING_SCHEME'
  | 'HASH_MISMATCH'
  | 'PARTY_NOT_SUBMITTER'
  | 'PARTY_NOT_ATTACHED'
  | 'BLIND_NOT_ACKNOWLEDGED'
  | 'TOPOLOGY_HASH_MISMATCH'
  | 'TOPOLOGY_MISMATCH'
  // policy
  | 'POLICY_BLIND_SIGNING'
  | 'POLICY_TEMPLATE'
  | 'POLICY_CHOICE'
  | 'POLICY_COUNTERPARTY'
  | 'POLICY_AMOUNT'
  | 'POLICY_OFFLINE_ONLY'
  | 'POLICY_QUORUM'
  | 'POLICY_OUTDATED'
  | 'POLICY_DIVERGED'
  // offline files
  | 'REQUEST_EXPIRED'
  | 'REQUEST_NOT_YET_VALID'
  | 'WRONG_KEY'
  | 'WRONG_PARTY'
  | 'DIGEST_MISMATCH'
  | 'BAD_SIGNATURE'
  | 'DUPLICATE_SIGNATURE'
  | 'SIGNATURES_MISSING'
  // sessions and requests belong to the participant they were prepared on
  | 'PARTICIPANT_CHANGED';

export class SigningRefusal extends ConsoleError {
  constructor(
    code: IpcErrorCode,
    readonly reason: SigningRefusalReason,
    message: string,
  ) {
    super(code, message);
    this.name = 'SigningRefusal';
  }
}
