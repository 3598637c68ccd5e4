/** Identity provider configurations over the JSON Ledger API v2 (`/v2/idps`). */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { IdpRow } from '../../ipc/channels/admin.js';
import type { LedgerClient } from '../ledger-client.js';

type S = v3_5.components['schemas'];

const idp = (id: string) => ({ params: { path: { 'idp-id': id } } });

export function toIdpRow(c: S['IdentityProviderConfig']): IdpRow {
  return {
    identityProviderId: c.identityProviderId,
    issuer: c.issuer,
    jwksUrl: c.jwksUrl,
    audience: c.audience ?? '',
    isDeactivated: c.isDeactivated ?? false,
  };
}

export async function listIdps(client: LedgerClient): Promise<IdpRow[]> {
  const res = await client.read(client.api.GET('/v2/idps'));
  return res.identityProviderConfigs
    .map(toIdpRow)
    .sort((a, b) => a.identityProviderId.localeCompare(b.identityProviderId, 'en', { numeric: true }));
}

export async function createIdp(client: LedgerClient, row: IdpRow): Promise<IdpRow> {
  const body: S['CreateIdentityProviderConfigRequest'] = { identityProviderConfig: { ...row } };
  return toIdpRow((await client.read(client.api.POST('/v2/idps', { body }))).identityProviderConfig);
}

/** Updates every modifiable field (issuer, JWKS URL, audience, deactivation) to the given values. */
export async function updateIdp(client: LedgerClient, row: IdpRow): Promise<IdpRow> {
  const body: S['UpdateIdentityProviderConfigRequest'] = {
    identityProviderConfig: { ...row },
    updateMask: { paths: ['issuer', 'jwks_url', 'audience', 'is_deactivated'], unknownFields: { fields: {} } },
  };
  return toIdpRow(
    (await client.read(client.api.PATCH('/v2/idps/{idp-id}', { ...idp(row.identityProviderId), body }))).identityProviderConfig,
  );
}

export async function deleteIdp(client: LedgerClient, id: string): Promise<void> {
  await client.read(client.api.DELETE('/v2/idps/{idp-id}', idp(id)));
}
