/** Searching and summarising the package list (pure; unit-tested). */
import type { PackageRow } from '../../../../src/ipc/channels/packages.js';

/**
 * Matches name, version, package id (prefix or substring), LF version; several words must all match.
 * `vetted:yes|no` and `uploaded:no` narrow by status.
 */
export function filterPackages(rows: readonly PackageRow[], query: string): PackageRow[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((r) =>
    words.every((w) => {
      if (w === 'vetted:yes') return r.vetted.length > 0;
      if (w === 'vetted:no') return r.vetted.length === 0;
      if (w === 'uploaded:no') return !r.uploaded;
      const hay = `${r.name} ${r.version} ${r.packageId} lf${r.lfVersion ?? ''} ${r.lfVersion ?? ''}`.toLowerCase();
      return hay.includes(w);
    }),
  );
}

/** "Vetted on 2 of 2 synchronizers" style status of a row. */
export function vettingStatus(row: PackageRow, synchronizerCount: number): { label: string; tone: 'ok' | 'warning' | 'muted' } {
  const n = new Set(row.vetted.map((v) => v.synchronizerId)).size;
  if (n === 0) return { label: row.uploaded ? 'Not vetted' : 'Unknown', tone: 'muted' };
  if (synchronizerCount > 0 && n >= synchronizerCount) return { label: n === 1 ? 'Vetted' : `Vetted on all ${n}`, tone: 'ok' };
  return { label: `Vetted on ${n} of ${synchronizerCount}`, tone: 'warning' };
}

/** Short synchronizer label: its alias, else the part before `::`. */
export function syncLabel(id: string, aliases: ReadonlyMap<string, string>): string {
  const alias = aliases.get(id);
  if (alias) return alias;
  return id.split('::')[0] || id;
}

export function shortPackageId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 12)}…` : id;
}
