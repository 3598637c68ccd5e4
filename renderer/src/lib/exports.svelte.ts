/**
 * Starting an export from any view: the main process makes the file and delivers it (browser host: a download from
 * a one-time same-origin URL, which this starts; Electron: a save dialog). Every export is listed in `exportRuns`,
 * which ExportNotice shows the same way everywhere: progress and Cancel while it runs, then file name, size, and
 * where the file went.
 */
import type { ConsoleClient } from '../../../src/ipc/client.js';
import { IpcCallError } from '../../../src/ipc/client.js';
import type { ExportLocation, ExportRequest } from '../../../src/ipc/contract.js';
import type { IpcError } from '../../../src/ipc/errors.js';

export interface ExportRun {
  id: number;
  /** What is exported, for the notice (e.g. "Audit log"). */
  label: string;
  state: 'running' | 'done' | 'declined' | 'failed';
  fileName: string | null;
  bytes: number;
  lines: number | null;
  fraction: number | null;
  location: ExportLocation | null;
  error: IpcError | null;
}

let nextId = 0;
/** Unsubscribe functions of running exports (not state: nothing renders them). */
// eslint-disable-next-line svelte/prefer-svelte-reactivity
const cancels = new Map<number, () => void>();

/** Newest first; the notice shows them. */
export const exportRuns = $state<ExportRun[]>([]);

/** Starts the browser's download of the host-served file (same origin, so `download` names it). */
function download(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Runs one export; resolves with the finished run (state `done`, or `declined` when the save dialog was closed) and
 * rejects with an IpcCallError when it failed.
 */
export function runExport(client: ConsoleClient, request: ExportRequest, label: string): Promise<ExportRun> {
  const id = ++nextId;
  exportRuns.unshift({ id, label, state: 'running', fileName: null, bytes: 0, lines: null, fraction: null, location: null, error: null });
  // the reactive copy: updates through it reach the notice
  const run = exportRuns[0] as ExportRun;
  if (exportRuns.length > 5) exportRuns.splice(5);
  return new Promise<ExportRun>((resolve, reject) => {
    const end = (state: ExportRun['state']) => {
      run.state = state;
      cancels.get(id)?.();
      cancels.delete(id);
      if (state === 'failed') reject(new IpcCallError(run.error ?? { code: 'INTERNAL', message: 'The export failed' }));
      else resolve(run);
    };
    const unsubscribe = client.subscribe(
      'exports.run',
      request,
      (ev) => {
        if (ev.type === 'ready') {
          run.fileName = ev.fileName;
          download(ev.url, ev.fileName);
        } else if (ev.type === 'progress') {
          run.bytes = ev.bytes;
          run.lines = ev.lines ?? run.lines;
          run.fraction = ev.fraction ?? run.fraction;
        } else if (ev.type === 'done') {
          Object.assign(run, { fileName: ev.fileName, bytes: ev.bytes, lines: ev.lines ?? null, fraction: 1, location: ev.location });
          end('done');
        } else if (ev.type === 'cancelled') {
          end('declined');
        } else {
          run.error = ev.error;
          end('failed');
        }
      },
      (error) => {
        run.error = error;
        end('failed');
      },
    );
    cancels.set(id, unsubscribe);
  });
}

/** Stops a running export (its partial file is removed). */
export function cancelExport(run: ExportRun): void {
  const cancel = cancels.get(run.id);
  cancels.delete(run.id);
  cancel?.();
  if (run.state === 'running') {
    run.state = 'failed';
    run.error = { code: 'CANCELLED', message: 'The export was cancelled' };
  }
}

export function dismissExport(run: ExportRun): void {
  const i = exportRuns.findIndex((r) => r.id === run.id);
  if (i >= 0) exportRuns.splice(i, 1);
}

export const sizeText = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`;

/** Saves a file the console already made (a request or response file) the same way; failures show in the notice. */
export function saveFile(client: ConsoleClient, fileName: string, text: string, label: string): void {
  runExport(client, { kind: 'file', fileName, text }, label).catch(() => undefined);
}
