/**
 * How the simulator authenticates Ledger API requests (the `auth` option of `startSimulator`).
 *
 * - `none` (default, demo mode): no token needed; a bearer JWT is decoded without verification and its
 *   `sub` names the user; everything is allowed.
 * - `hs256`: user tokens signed with a shared secret (Canton's `unsafe-jwt-hmac-256`).
 * - `rs256`: user tokens signed with RS256 keys published in a JWKS file (Canton's `jwt-jwks`, read from disk).
 *
 * In both JWT modes `audience` (when set) must be one of the token's `aud` values (Canton's
 * audience-based tokens); without it the token's `scope` must contain `daml_ledger_api` (scope-based
 * tokens). `issuer` (when set) must equal the token's `iss`. Tokens whose `iss` is the issuer of a
 * non-default identity provider config (`/v2/idps`) are verified against that provider's JWKS URL.
 */
import { z } from 'zod';

const nonEmpty = (what: string) => z.string().min(1, `${what} must not be empty`);

export const SimAuthConfigSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('none') }).strict(),
  z
    .object({
      mode: z.literal('hs256'),
      secret: nonEmpty('secret'),
      audience: nonEmpty('audience').optional(),
      issuer: nonEmpty('issuer').optional(),
    })
    .strict(),
  z
    .object({
      mode: z.literal('rs256'),
      jwksFile: nonEmpty('jwksFile'),
      audience: nonEmpty('audience').optional(),
      issuer: nonEmpty('issuer').optional(),
    })
    .strict(),
]);

export type SimAuthConfig = z.infer<typeof SimAuthConfigSchema>;

/** Validates an auth config; the error names the offending field. */
export function parseAuthConfig(raw: unknown): SimAuthConfig {
  const r = SimAuthConfigSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue && issue.path.length > 0 ? `auth.${issue.path.join('.')}` : 'auth';
    throw new Error(`invalid simulator auth config: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}
