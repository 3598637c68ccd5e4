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
  /** Column key → validity bounds there, for cells vetted with at least one bound. */
  bounds: Record<string, Bounds>;
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
      r = { packageId: id, name: known?.name || name, version: known?.version || version, cells: {}, bounds: {} };
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
    for (const p of st.packages) {
      const r = row(p.packageId, p.packageName, p.packageVersion);
      r.cells[key] = true;
      if (p.validFrom || p.validUntil) r.bounds[key] = { validFrom: p.validFrom, validUntil: p.validUntil };
    }
  }
  for (const p of packages) if (p.uploaded) row(p.packageId, p.name, p.version);
  const cols = [...columns.values()].sort(
    (a, b) =>
      Number(b.local) - Number(a.local) ||
      a.synchronizerId.localeCompare(b.synchronizerId) ||
      a.participantId.localeCompare(b.participantId),
  );
  const sorted = [...rows.values()].sort(
    (a, b) =>
      (a.name === '' ? 1 : 0) - (b.name === '' ? 1 : 0) ||
      a.name.localeCompare(b.name) ||
      b.version.localeCompare(a.version, 'en', { numeric: true }) ||
      a.packageId.localeCompare(b.packageId),
  );
  return { columns: cols, rows: sorted };
}

/** `record` without `key` (a new object). */
function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

/** Staged vetting changes per local column: packageId → desired state. */
export type StagedChanges = Record<string, Record<string, boolean>>;

/** Toggles a cell's desired state; staging the current state again removes the change. */
export function toggleStaged(staged: StagedChanges, column: string, packageId: string, current: boolean): StagedChanges {
  const before = staged[column] ?? {};
  const desired = packageId in before ? !before[packageId] : !current;
  const col = desired === current ? without(before, packageId) : { ...before, [packageId]: desired };
  return Object.keys(col).length === 0 ? without(staged, column) : { ...staged, [column]: col };
}

/** Validity bounds staged for a package (ISO instants; null = unbounded on that side). */
export interface Bounds {
  validFrom: string | null;
  validUntil: string | null;
}
/** Staged bounds per local column: packageId → bounds to vet with. */
export type StagedBounds = Record<string, Record<string, Bounds>>;

/** Stages bounds for a cell (vetting with bounds overwrites the current ones); `null` drops the staged bounds. */
export function stageBounds(staged: StagedBounds, column: string, packageId: string, bounds: Bounds | null): StagedBounds {
  const before = staged[column] ?? {};
  const col = bounds ? { ...before, [packageId]: bounds } : without(before, packageId);
  return Object.keys(col).length === 0 ? without(staged, column) : { ...staged, [column]: col };
}

/**
 * The contract changes for one column (vet first, then unvet, each by package id). A package with staged
 * bounds is vetted with them, whether it was vetted before or not, unless it is being unvetted.
 */
export function changesFor(staged: StagedChanges, column: string, bounds: StagedBounds = {}): VettingChange[] {
  const col = staged[column] ?? {};
  const b = bounds[column] ?? {};
  const vet = [...new Set([...Object.keys(col).filter((id) => col[id]), ...Object.keys(b).filter((id) => col[id] !== false)])].sort();
  const unvet = Object.keys(col)
    .filter((id) => !col[id])
    .sort();
  return [
    ...vet.map((packageId) => {
      const bound = b[packageId];
      return bound
        ? { op: 'vet' as const, packageId, validFrom: bound.validFrom, validUntil: bound.validUntil }
        : { op: 'vet' as const, packageId };
    }),
    ...unvet.map((packageId) => ({ op: 'unvet' as const, packageId })),
  ];
}

export function stagedCount(staged: StagedChanges, bounds: StagedBounds = {}): number {
  const columns = new Set([...Object.keys(staged), ...Object.keys(bounds)]);
  let n = 0;
  for (const c of columns) n += new Set([...Object.keys(staged[c] ?? {}), ...Object.keys(bounds[c] ?? {})]).size;
  return n;
}

/** `datetime-local` input value (local time, no zone) → ISO instant; '' → null; undefined when not a time. */
export function localInputToIso(value: string): string | null | undefined {
  if (value.trim() === '') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** ISO instant → `datetime-local` input value in local time (minutes). */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A short statement of validity bounds, or '' when unbounded. */
export function boundsLabel(b: Bounds, format: (iso: string) => string = (iso) => new Date(iso).toLocaleString()): string {
  const parts = [b.validFrom ? `from ${format(b.validFrom)}` : '', b.validUntil ? `until ${format(b.validUntil)}` : ''].filter(Boolean);
  return parts.join(' · ');
}

/** Error in a bounds pair, or '' when it is usable. */
export function boundsError(b: Bounds): string {
  if (b.validFrom && b.validUntil && Date.parse(b.validUntil) <= Date.parse(b.validFrom))
    return '“Valid until” must be after “valid from”.';
  return '';
}

/** Parties typed into one box: separated by commas, spaces or new lines, duplicates dropped. */
export function parseParties(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}
