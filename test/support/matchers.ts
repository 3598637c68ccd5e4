/**
 * vitest's asymmetric matchers are typed `any`, so every object pattern holding one is an unsafe `any` assignment to
 * the type checker, and the rest of the pattern goes unchecked with it. These are the same matchers typed `unknown`:
 * the assertion is unchanged and the pattern stays typed.
 */
import { expect } from 'vitest';

export const anyString = (): unknown => expect.any(String);
export const anyNumber = (): unknown => expect.any(Number);
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);
export const stringContaining = (text: string): unknown => expect.stringContaining(text);
export const objectContaining = (pattern: Record<string, unknown>): unknown => expect.objectContaining(pattern);
export const arrayContaining = (items: unknown[]): unknown => expect.arrayContaining(items);
