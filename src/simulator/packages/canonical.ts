/** Canonical serialisation of a package definition (sorted keys, functions omitted) and its package id. */
import { sha256Hex } from '../ids.js';
import type { PackageDef } from './types.js';

export function canonicalJson(value: unknown): string {
  if (typeof value === 'function' || value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => typeof v !== 'function' && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Package id: lowercase hex SHA-256 of the canonical serialisation. */
export const packageIdOf = (pkg: PackageDef): string => sha256Hex(canonicalJson(pkg));
