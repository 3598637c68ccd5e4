/** Offsets typed by the user (pure; unit-tested): whole numbers of at most 15 digits, so they stay exact as JS numbers. */

/** The offset in `text`; null when empty, 'invalid' when it is not a whole number. */
export function parseOffset(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (t === '') return null;
  return /^\d{1,15}$/.test(t) ? Number(t) : 'invalid';
}

/** A range's bounds are invalid when either is not a number or "to" is below "from". */
export function rangeInvalid(from: number | null | 'invalid', to: number | null | 'invalid'): boolean {
  return from === 'invalid' || to === 'invalid' || (typeof from === 'number' && typeof to === 'number' && to < from);
}

/** What the lookup box asks for: an update at an offset, or one by its update id. */
export type LookupTarget = { offset: number } | { updateId: string };

/** The lookup box's text as a target; null for empty text; an Error when it is an offset below 1. */
export function parseLookup(text: string): LookupTarget | null | Error {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d{1,15}$/.test(t)) return { updateId: t };
  const offset = Number(t);
  return offset <= 0 ? new Error('Offsets start at 1') : { offset };
}
