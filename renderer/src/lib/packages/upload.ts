/**
 * DAR upload from the renderer: the picked file is read in chunks (File.slice → bytes) and sent
 * through `packages.upload.chunk`, so no single IPC frame is large and progress can be shown; then the main
 * process validates (console + participant) and, on the operator's word, uploads. Pure helpers are unit-tested.
 */
import { DAR_CHUNK_BYTES, MAX_DAR_BYTES } from '../../../../src/ipc/channels/packages.js';

export type UploadPhase = 'idle' | 'reading' | 'validating' | 'validated' | 'uploading' | 'done' | 'failed' | 'cancelled';

/** The phases shown as steps, in order. */
export const PHASE_STEPS = [
  { id: 'reading', label: 'Reading' },
  { id: 'validating', label: 'Validating' },
  { id: 'uploading', label: 'Uploading' },
  { id: 'done', label: 'Done' },
] as const;

/**
 * State of one step for the stepper: done, current or pending; `refused` (the validation report says the
 * DAR cannot be uploaded) marks the validating step failed instead of done.
 */
export function stepState(
  phase: UploadPhase,
  step: (typeof PHASE_STEPS)[number]['id'],
  refused = false,
): 'done' | 'current' | 'pending' | 'failed' {
  if (refused && phase === 'validated' && step === 'validating') return 'failed';
  const order = ['reading', 'validating', 'uploading', 'done'];
  const at = phase === 'validated' ? 1.5 : phase === 'done' ? 3 : order.indexOf(phase);
  const i = order.indexOf(step);
  if (phase === 'done') return 'done';
  if (at < 0) return 'pending';
  if (i < at) return 'done';
  if (i === at) return 'current';
  return 'pending';
}

/** Refuses files that are obviously not DARs before reading a byte; null = fine. */
export function checkFile(file: { name: string; size: number }): string | null {
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > MAX_DAR_BYTES)
    return `“${file.name}” is ${formatBytes(file.size)}; the console uploads DARs of at most ${formatBytes(MAX_DAR_BYTES)}.`;
  return null;
}

/** Byte ranges of the chunks of a file of `size` bytes. */
export function chunkRanges(size: number, chunk = DAR_CHUNK_BYTES): Array<[start: number, end: number]> {
  const out: Array<[number, number]> = [];
  for (let start = 0; start < size; start += chunk) out.push([start, Math.min(size, start + chunk)]);
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Percentage 0–100 (integer) of `done` out of `total`. */
export function percent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((done / total) * 100)));
}
