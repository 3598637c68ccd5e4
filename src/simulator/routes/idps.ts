/**
 * Identity provider configurations (`/v2/idps`): create (bounded by `maxIdentityProviderConfigs`),
 * list, get, update with a field mask, delete. Error codes, categories and causes follow Canton's
 * IdentityProviderConfigServiceErrorGroup. The default identity provider ("") is implicit and never listed.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { z } from 'zod';
import { optionalString } from '../schemas.js';
import type { SimContext } from '../context.js';
import { CantonError, ErrorCategory, Grpc } from '../errors.js';
import type { RequestCtx, Router } from '../router.js';
import { ok } from '../router.js';
import { idpStore, type IdpRow } from '../store/idps.js';
import { body } from './common.js';

type S = v3_5.components['schemas'];
type ErrorKind = CantonError['kind'];

/** Canton error codes of the identity provider config service (not in the shared code table). */
export const IdpCodes = {
  IDP_CONFIG_NOT_FOUND: {
    code: 'IDP_CONFIG_NOT_FOUND',
    category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing,
    grpc: Grpc.NOT_FOUND,
  },
  IDP_CONFIG_ALREADY_EXISTS: {
    code: 'IDP_CONFIG_ALREADY_EXISTS',
    category: ErrorCategory.InvalidGivenCurrentSystemStateResourceExists,
    grpc: Grpc.ALREADY_EXISTS,
  },
  IDP_CONFIG_ISSUER_ALREADY_EXISTS: {
    code: 'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
    category: ErrorCategory.InvalidGivenCurrentSystemStateResourceExists,
    grpc: Grpc.ALREADY_EXISTS,
  },
  /** Canton: ErrorCategory.InvalidGivenCurrentSystemStateOther (FAILED_PRECONDITION). */
  TOO_MANY_IDENTITY_PROVIDER_CONFIGS: {
    code: 'TOO_MANY_IDENTITY_PROVIDER_CONFIGS',
    category: ErrorCategory.InvalidGivenCurrentSystemStateOther,
    grpc: Grpc.FAILED_PRECONDITION,
  },
  INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST: {
    code: 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST',
    category: ErrorCategory.InvalidIndependentOfSystemState,
    grpc: Grpc.INVALID_ARGUMENT,
  },
} as const satisfies Record<string, ErrorKind>;

/** A CantonError whose code is one of `IdpCodes` (answered as a JsCantonError by the server). */
export class IdpError extends CantonError {
  declare readonly kind: ErrorKind;
  constructor(
    kind: ErrorKind,
    cause: string,
    opts: { context?: Record<string, string>; resources?: [string, string][]; definiteAnswer?: boolean } = {},
  ) {
    super('INVALID_ARGUMENT', cause, opts);
    Object.defineProperty(this, 'kind', { value: kind, enumerable: true });
  }
}

export const idpNotFound = (operation: string, id: string): IdpError =>
  new IdpError(IdpCodes.IDP_CONFIG_NOT_FOUND, `${operation} failed for unknown identity provider id="${id}"`, {
    context: { identityProviderId: id },
    resources: [['IDENTITY_PROVIDER_CONFIG', id]],
    definiteAnswer: false,
  });

/** Canton's LedgerString: letters, digits and `#:-_/ `, at most 255 characters. */
const LEDGER_STRING_RE = /^[A-Za-z0-9#:\-_/ ]{1,255}$/;

const IdpConfigSchema = z.object({
  identityProviderId: z.string(),
  isDeactivated: z.boolean().optional(),
  issuer: z.string(),
  jwksUrl: z.string(),
  audience: optionalString,
});
const CreateIdpRequestSchema = z.object({ identityProviderConfig: IdpConfigSchema });
const UpdateIdpRequestSchema = z.object({
  identityProviderConfig: IdpConfigSchema,
  updateMask: z.object({ paths: z.array(z.string()).optional(), unknownFields: z.unknown().optional() }),
});

const missing = (field: string): CantonError =>
  new CantonError('MISSING_FIELD', `The submitted command is missing a mandatory field: ${field}`, { context: { field_name: field } });
const invalid = (field: string, message: string): CantonError =>
  new CantonError('INVALID_FIELD', `The submitted request has a field with invalid value: Invalid field ${field}: ${message}`, {
    context: { field_name: field },
  });

function checkId(id: string): void {
  if (id === '') throw missing('identity_provider_id');
  if (!LEDGER_STRING_RE.test(id)) throw invalid('identity_provider_id', `'${id}' is not a valid LedgerString`);
}
function checkIssuer(issuer: string): void {
  if (issuer === '') throw missing('issuer');
  if (issuer.length > 1000) throw invalid('issuer', 'longer than 1000 characters');
}
function checkJwksUrl(url: string): void {
  if (url === '') throw missing('jwks_url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('jwks_url', `'${url}' is not a valid URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid('jwks_url', `'${url}' is not an http(s) URL`);
}

const toApi = (r: IdpRow): S['IdentityProviderConfig'] => ({
  identityProviderId: r.identityProviderId,
  isDeactivated: r.isDeactivated,
  issuer: r.issuer,
  jwksUrl: r.jwksUrl,
  audience: r.audience,
});

function idParam(ctx: RequestCtx): string {
  const id = ctx.params['idp-id'] ?? '';
  checkId(id);
  return id;
}

/** Field-mask paths accepted by PATCH, in protobuf (snake_case) and JSON (camelCase) spelling. */
const MASK_FIELDS: Record<string, keyof Omit<IdpRow, 'identityProviderId'>> = {
  is_deactivated: 'isDeactivated',
  isDeactivated: 'isDeactivated',
  issuer: 'issuer',
  jwks_url: 'jwksUrl',
  jwksUrl: 'jwksUrl',
  audience: 'audience',
};

export function registerIdpRoutes(router: Router, sim: SimContext): void {
  const store = idpStore(sim.store.db);

  router.add('POST', '/v2/idps', async (ctx) => {
    const { identityProviderConfig: c } = await body(ctx, CreateIdpRequestSchema);
    checkId(c.identityProviderId);
    checkIssuer(c.issuer);
    checkJwksUrl(c.jwksUrl);
    const row: IdpRow = {
      identityProviderId: c.identityProviderId,
      issuer: c.issuer,
      jwksUrl: c.jwksUrl,
      audience: c.audience ?? '',
      isDeactivated: c.isDeactivated ?? false,
    };
    store.insert(row, () => {
      const operation = 'Create identity provider config';
      if (store.get(row.identityProviderId))
        throw new IdpError(
          IdpCodes.IDP_CONFIG_ALREADY_EXISTS,
          `${operation} failed, as identity provider "${row.identityProviderId}" already exists`,
          {
            context: { identityProviderId: row.identityProviderId },
            resources: [['IDENTITY_PROVIDER_CONFIG', row.identityProviderId]],
            definiteAnswer: false,
          },
        );
      if (store.byIssuer(row.issuer))
        throw new IdpError(
          IdpCodes.IDP_CONFIG_ISSUER_ALREADY_EXISTS,
          `${operation} failed, as identity provider with issuer "${row.issuer}" already exists`,
          {
            context: { issuer: row.issuer },
            resources: [['IDENTITY_PROVIDER_CONFIG', row.issuer]],
            definiteAnswer: false,
          },
        );
      const max = sim.settings.maxIdentityProviderConfigs;
      if (store.count() >= max)
        throw new IdpError(IdpCodes.TOO_MANY_IDENTITY_PROVIDER_CONFIGS, `${operation} failed.`, {
          context: { maxIdentityProviderConfigs: String(max) },
          definiteAnswer: false,
        });
    });
    const res: S['CreateIdentityProviderConfigResponse'] = { identityProviderConfig: toApi(row) };
    return ok(res);
  });

  router.add('GET', '/v2/idps', () => {
    const res: S['ListIdentityProviderConfigsResponse'] = { identityProviderConfigs: store.list().map(toApi) };
    return ok(res);
  });

  router.add('GET', '/v2/idps/{idp-id}', (ctx) => {
    const id = idParam(ctx);
    const row = store.get(id);
    if (!row) throw idpNotFound('Get identity provider config', id);
    const res: S['GetIdentityProviderConfigResponse'] = { identityProviderConfig: toApi(row) };
    return ok(res);
  });

  router.add('PATCH', '/v2/idps/{idp-id}', async (ctx) => {
    const id = idParam(ctx);
    const req = await body(ctx, UpdateIdpRequestSchema);
    const given = req.identityProviderConfig;
    const operation = 'Update identity provider config';
    const badUpdate = (reason: string) =>
      new IdpError(
        IdpCodes.INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST,
        `Update operation for identity provider config '${id}' failed due to: ${reason}`,
        {
          context: { identityProviderId: id },
          resources: [['IDENTITY_PROVIDER_CONFIG', id]],
        },
      );
    if (given.identityProviderId !== '' && given.identityProviderId !== id)
      throw new CantonError(
        'INVALID_ARGUMENT',
        `identityProviderConfig.identityProviderId '${given.identityProviderId}' does not match the path '${id}'`,
        {
          context: { identityProviderId: id },
        },
      );
    const paths = req.updateMask.paths ?? [];
    if (paths.length === 0) throw badUpdate('The update mask contains no entries');
    const current = store.get(id);
    if (!current) throw idpNotFound(operation, id);
    const next: IdpRow = { ...current };
    for (const p of paths) {
      const field = MASK_FIELDS[p];
      if (!field) throw badUpdate(`The update path: '${p}' points to an unknown field`);
      if (field === 'isDeactivated') next.isDeactivated = given.isDeactivated ?? false;
      else if (field === 'audience') next.audience = given.audience ?? '';
      else if (field === 'issuer') {
        checkIssuer(given.issuer);
        next.issuer = given.issuer;
      } else {
        checkJwksUrl(given.jwksUrl);
        next.jwksUrl = given.jwksUrl;
      }
    }
    const clash = next.issuer !== current.issuer ? store.byIssuer(next.issuer) : undefined;
    if (clash)
      throw new IdpError(
        IdpCodes.IDP_CONFIG_ISSUER_ALREADY_EXISTS,
        `${operation} failed, as identity provider with issuer "${next.issuer}" already exists`,
        {
          context: { issuer: next.issuer },
          resources: [['IDENTITY_PROVIDER_CONFIG', next.issuer]],
          definiteAnswer: false,
        },
      );
    store.update(next);
    const res: S['UpdateIdentityProviderConfigResponse'] = { identityProviderConfig: toApi(next) };
    return ok(res);
  });

  router.add('DELETE', '/v2/idps/{idp-id}', (ctx) => {
    const id = idParam(ctx);
    if (!store.delete(id)) throw idpNotFound('Delete identity provider config', id);
    const res: S['DeleteIdentityProviderConfigResponse'] = {};
    return ok(res);
  });
}
