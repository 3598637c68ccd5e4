/**
 * Reads the `exp` claim of a JWT without verifying it. Used only to know when a token will expire
 * (cache lifetime, "Test connection" display); authentication itself is the participant's job.
 */
import { z } from 'zod';

const ExpClaimSchema = z.object({ exp: z.number().finite().positive() });

/** Epoch milliseconds of the `exp` claim, or null for an opaque token or one without `exp`. */
export function jwtExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const parsed = ExpClaimSchema.safeParse(JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.exp * 1000 : null;
  } catch {
    return null;
  }
}
