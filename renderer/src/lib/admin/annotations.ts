/** Editing annotations (participant-local metadata) as key/value rows (pure; unit-tested). */
import { ANNOTATION_KEY_PATTERN } from '../../../../src/ipc/channels/admin.js';

export interface AnnotationRow {
  /** Stable id for keyed each-blocks. */
  id: number;
  key: string;
  value: string;
}

let nextId = 1;
export const newRow = (key = '', value = ''): AnnotationRow => ({ id: nextId++, key, value });

export function rowsFrom(annotations: Readonly<Record<string, string>>): AnnotationRow[] {
  return Object.entries(annotations)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => newRow(k, v));
}

export interface AnnotationDiff {
  annotations: Record<string, string>;
  /** Keys present before and not any more (Canton deletes a key sent with an empty value). */
  removed: string[];
  /** Problems by row id; empty when the rows can be saved. */
  errors: Map<number, string>;
  changed: boolean;
}

/** Rows with both key and value empty are ignored; everything else must be a valid, unique key with a value. */
export function diffAnnotations(original: Readonly<Record<string, string>>, rows: readonly AnnotationRow[]): AnnotationDiff {
  const annotations: Record<string, string> = {};
  const errors = new Map<number, string>();
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '' && row.value === '') continue;
    if (key === '') errors.set(row.id, 'key is required');
    else if (!ANNOTATION_KEY_PATTERN.test(key)) errors.set(row.id, 'letters, digits, - _ . (optionally prefixed with a domain and /)');
    else if (Object.hasOwn(annotations, key)) errors.set(row.id, `duplicate key “${key}”`);
    else if (row.value === '') errors.set(row.id, 'value is required (remove the row to delete the annotation)');
    else annotations[key] = row.value;
  }
  const removed = Object.keys(original).filter((k) => !Object.hasOwn(annotations, k));
  const changed =
    removed.length > 0 ||
    Object.keys(annotations).length !== Object.keys(original).length ||
    Object.entries(annotations).some(([k, v]) => original[k] !== v);
  return { annotations, removed, errors, changed };
}
