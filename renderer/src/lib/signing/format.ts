/** Display helpers for the signing views (pure). */

export function shortHex(hex: string, head = 10, tail = 6): string {
  return hex.length > head + tail + 1 ? `${hex.slice(0, head)}…${hex.slice(-tail)}` : hex;
}

/** Hex in groups of 4 for reading a hash aloud / comparing with another screen. */
export function groupedHex(hex: string): string {
  return hex.replace(/(.{4})/g, '$1 ').trim();
}

/** Human text for refusal reasons. */
export const REASON_TITLES: Record<string, string> = {
  HASH_MISMATCH: 'The participant’s hash does not match its transaction',
  UNDECODABLE_TRANSACTION: 'The prepared transaction cannot be decoded',
  UNSUPPORTED_HASHING_SCHEME: 'Unsupported hashing scheme',
  PARTY_NOT_SUBMITTER: 'Your party is not a submitter of this transaction',
  PARTY_NOT_ATTACHED: 'This key does not sign for that party',
  BLIND_NOT_ACKNOWLEDGED: 'Blind signing was not confirmed',
  TOPOLOGY_HASH_MISMATCH: 'The onboarding multi-hash does not match its transactions',
  TOPOLOGY_MISMATCH: 'The onboarding transactions are not what was asked for',
  POLICY_BLIND_SIGNING: 'The key’s policy forbids blind signing',
  POLICY_TEMPLATE: 'The key’s policy does not allow this template',
  POLICY_CHOICE: 'The key’s policy does not allow this choice',
  POLICY_COUNTERPARTY: 'The key’s policy does not allow this counterparty',
  POLICY_AMOUNT: 'The amount exceeds the key’s limit',
  POLICY_OFFLINE_ONLY: 'This key signs only offline',
  POLICY_QUORUM: 'More signatures of the party’s keys are needed',
  POLICY_OUTDATED: 'This console’s policy of the key is older than the one the request was checked against',
  POLICY_DIVERGED: 'The key’s policy differs between the two consoles',
  REQUEST_EXPIRED: 'The signing request has expired',
  REQUEST_NOT_YET_VALID: 'The signing request is dated in the future',
  WRONG_KEY: 'Wrong key',
  WRONG_PARTY: 'Wrong party',
  DIGEST_MISMATCH: 'The file was altered',
  BAD_SIGNATURE: 'A signature does not verify',
  SIGNATURES_MISSING: 'Not all required signatures are collected',
  DUPLICATE_SIGNATURE: 'Duplicate signature',
  WRONG_PASSPHRASE: 'Wrong passphrase',
  FILE_ALTERED: 'The file was altered',
  UNKNOWN_FILE_VERSION: 'Unknown file version',
  NOT_A_VALID_FILE: 'Not a valid file',
  WEAK_PASSPHRASE: 'Passphrase too weak',
  LOCKED: 'The key file is locked',
  PARTICIPANT_CHANGED: 'Prepared on another participant',
  UNSUPPORTED_KDF: 'The file demands a key derivation this console does not run',
};

export function reasonTitle(reason: string): string {
  return REASON_TITLES[reason] ?? reason;
}

export const BLIND_WORD = 'BLIND';
