/**
 * The vetting table: packages × (participant, synchronizer) columns, and the changes staged by the operator
 * before a dry run or an apply (pure; unit-tested).
 */
import type { PackageRow, VettingChange, VettingList } from '../../../../src/ipc/channels/packages.js';

export interface VettingColumn {
  key: string;
  participantId: string;
  synchronizerId: string;
  local: boolean;
  topologySerial: number | null;
}

export interface VettingMatrixRow {
  packageId: string;
  name: string;
  version: string;
  /** Column key → vetted there. */
  cells: Record<string, boolean>;
}

export const columnKey = (participantId: string, synchronizerId: string): string => `${participantId}|${synchronizerId}`;

/**
 * Columns: this participant on every connected synchronizer first (even with nothing vetted yet), then
 * every other participant/synchronizer pair the topology shows. Rows: every package known from either side.
 */
export function vettingMatrix(list: VettingList, packages: readonly PackageRow[]): { columns: VettingColumn[]; rows: VettingMatrixRow[] } {
  const columns = new Map<string, VettingColumn>();
  for (const s of list.synchronizers) {
    columns.set(columnKey(list.participantId, s.synchronizerId), {
      key: columnKey(list.participantId, s.synchronizerId),
      participantId: list.participantId,
      synchronizerId: s.synchronizerId,
      local: true,
      topologySerial: null,
    });
  }
  const rows = new Map<string, VettingMatrixRow>();
  const names = new Map(packages.map((p) => [p.packageId, p]));
  const row = (id: string, name: string, version: string): VettingMatrixRow => {
    let r = rows.get(id);
    if (!r) {
      const known = names.get(id);
      r = { packageId: id, name: known?.name || name, version: known?.version || version, cells: {} };
      rows.set(id, r);
    }
    if (!r.name && name) r.name = name;
    if (!r.version && version) r.version = version;
    return r;
  };
  for (const st of list.states) {
    const key = columnKey(st.participantId, st.synchronizerId);
    const col = columns.get(key) ?? {
      key,
      participantId: st.participantId,
      synchronizerId: st.synchronizerId,
      local: st.participantId === list.participantId,
      topologySerial: null,
    };
    col.topologySerial = st.topologySerial;
    columns.set(key, col);
    for (const p of st.packages) row(p.packageId, p.packageName, p.packageVersion).cells[key] = true;
  }
  for (const p of packages) if (p.uploaded) row(p.packageId, p.name, p.version);
  const cols = [...columns.values()].sort(
    (a, b) => Number(b.local) - Number(a.local) || a.synchronizerId.localeCompare(b.synchronizerId) || a.participantId.localeCompare(b.participantId),
  );
  const sorted = [...rows.values()].sort(
    (a, b) => (a.name === '' ? 1 : 0) - (b.name === '' ? 1 : 0) || a.name.localeCompare(b.name) || b.version.localeCompare(a.version, 'en', { numeric: true }) || a.packageId.localeCompare(b.packageId),
  );
  return { columns: cols, rows: sorted };
}

/** Staged vetting changes per local column: packageId → desired state. */
export type StagedChanges = Record<string, Record<string, boolean>>;

/** Toggles a cell's desired state; staging the current state again removes the change. */
export function toggleStaged(staged: StagedChanges, column: string, packageId: string, current: boolean): StagedChanges {
  const col = { ...(staged[column] ?? {}) };
  const desired = packageId in col ? !col[packageId] : !current;
  if (desired === current) delete col[packageId];
  else col[packageId] = desired;
  const next = { ...staged, [column]: col };
  if (Object.keys(col).length === 0) delete next[column];
  return next;
}

/** The contract changes for one column (vet first, then unvet, each by package id). */
export function changesFor(staged: StagedChanges, column: string): VettingChange[] {
  const col = staged[column] ?? {};
  const ids = Object.keys(col).sort();
  return [
    ...ids.filter((id) => col[id]).map((packageId) => ({ op: 'vet' as const, packageId })),
    ...ids.filter((id) => !col[id]).map((packageId) => ({ op: 'unvet' as const, packageId })),
  ];
}

export function stagedCount(staged: StagedChanges): number {
  return Object.values(staged).reduce((n, col) => n + Object.keys(col).length, 0);
}

/** Parties typed into one box: separated by commas, spaces or new lines, duplicates dropped. */
export function parseParties(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean))];
}
