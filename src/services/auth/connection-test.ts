/**
 * "Test connection" for a profile: obtain a token, then with it read the Ledger API version, the
 * authenticated user (`GET /v2/authenticated-user`) and that user's rights. Each step reports ok,
 * failed (with the error) or skipped (an earlier step failed); the token itself is never returned.
 */
import type { ConnectionTest, Profile } from '../../ipc/contract.js';
import { toIpcError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { fromApiRight, toUserRow } from '../ledger/users.js';
import type { Right } from '../../ipc/channels/admin.js';
import type { AccessToken } from './token-provider.js';

export interface ConnectionTestDeps {
  profile: Profile;
  /** The profile's token provider, asked exactly like every ledger request asks it. */
  accessToken: () => Promise<AccessToken | null>;
  client: LedgerClient;
}

export async function testConnection({ profile, accessToken, client }: ConnectionTestDeps): Promise<ConnectionTest> {
  const result: ConnectionTest = {
    profileId: profile.id,
    ok: false,
    token: { status: 'skipped' },
    ledger: { status: 'skipped' },
    user: { status: 'skipped' },
    rights: { status: 'skipped' },
  };
  try {
    const token = await accessToken();
    const expiresAt = token?.expiresAt != null ? new Date(token.expiresAt).toISOString() : null;
    result.token = {
      status: 'ok',
      source: profile.auth.mode,
      secretStore: profile.auth.mode === 'none' ? null : profile.auth.secretStore,
      expiresAt,
    };
  } catch (err) {
    result.token = { status: 'failed', error: toIpcError(err) };
    return result;
  }
  try {
    const v = await client.version();
    result.ledger = { status: 'ok', apiVersion: v.version };
  } catch (err) {
    result.ledger = { status: 'failed', error: toIpcError(err) };
    return result;
  }
  let userId: string;
  try {
    const answer = await client.read(client.api.GET('/v2/authenticated-user'));
    // required by the spec, but the answer is not validated: a participant that leaves it out gets a clear error
    if (!('user' in answer)) throw new Error('the participant answered without a user');
    const row = toUserRow(answer.user);
    userId = row.id;
    result.user = {
      status: 'ok',
      userId: row.id,
      primaryParty: row.primaryParty,
      isDeactivated: row.isDeactivated,
      identityProviderId: row.identityProviderId,
    };
  } catch (err) {
    result.user = { status: 'failed', error: toIpcError(err) };
    return result;
  }
  try {
    const res = await client.read(client.api.GET('/v2/users/{user-id}/rights', { params: { path: { 'user-id': userId } } }));
    const rights = (res.rights ?? []).map(fromApiRight).filter((r): r is Right => r !== null);
    result.rights = { status: 'ok', rights };
  } catch (err) {
    result.rights = { status: 'failed', error: toIpcError(err) };
    return result;
  }
  result.ok = true;
  return result;
}
