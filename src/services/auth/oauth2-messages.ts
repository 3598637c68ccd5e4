/**
 * Bodies of an OAuth 2.0 token endpoint (RFC 6749 §5.1 success, §5.2 error), parsed with zod so a
 * misbehaving identity provider produces a specific error instead of an undefined token.
 */
import { z } from 'zod';

export const TokenResponseSchema = z.object({
  access_token: z.string().min(1, 'access_token is empty'),
  token_type: z.string().min(1),
  /** RECOMMENDED, seconds. Some providers send it as a numeric string. */
  expires_in: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().nonnegative())
    .optional(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export const TokenErrorSchema = z.object({
  error: z.string().min(1),
  error_description: z.string().optional(),
  error_uri: z.string().optional(),
});
export type TokenError = z.infer<typeof TokenErrorSchema>;
