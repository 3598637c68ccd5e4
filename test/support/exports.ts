/**
 * Exports in tests, through the browser host's real delivery: the app delivers to a DownloadSink, which this module
 * serves over loopback HTTP; `run` starts `exports.run`, fetches the file from the one-time URL as the renderer does,
 * and resolves once the app reports the export done.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DownloadSink } from '../../src/host/downloads.js';
import type { SubscriptionEvent, SubscriptionParams } from '../../src/ipc/contract.js';
import type { Router } from '../../src/ipc/router.js';

export type ExportEvent = SubscriptionEvent<'exports.run'>;
export type ExportDone = Extract<ExportEvent, { type: 'done' }>;

export interface Exported {
  /** The file as the browser downloaded it. */
  text: string;
  done: ExportDone;
  /** Every event of the export, in order. */
  events: ExportEvent[];
}

export interface Downloads {
  /** Pass as `exportSink` to startConsoleApp. */
  sink: DownloadSink;
  /** Where the sink's downloads are served (`base + url` of a `ready` event). */
  base: string;
  /** Runs one export through `router` to the end; an error event (or a refused request) rejects with its message. */
  run(router: Router, req: SubscriptionParams<'exports.run'>): Promise<Exported>;
  close(): Promise<void>;
}

export async function startDownloads(): Promise<Downloads> {
  const sink = new DownloadSink();
  const server = http.createServer((req, res) => {
    if (!sink.serve(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const run = (router: Router, req: SubscriptionParams<'exports.run'>) =>
    new Promise<Exported>((resolve, reject) => {
      const events: ExportEvent[] = [];
      let text: Promise<string> | null = null;
      const sub = router.subscribe('exports.run', req, (raw) => {
        const e = raw as ExportEvent;
        events.push(e);
        if (e.type === 'ready') {
          text = fetch(base + e.url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`GET ${e.url}: ${r.status}`))));
          text.catch(reject);
        } else if (e.type === 'done') {
          if (!text) reject(new Error('exports.run was done without a download'));
          else text.then((t) => resolve({ text: t, done: e, events }), reject);
        } else if (e.type === 'error') reject(new Error(`${e.error.code}: ${e.error.message}`));
        else if (e.type === 'cancelled') reject(new Error('exports.run was cancelled'));
      });
      if (!sub.ok) reject(new Error(`${sub.error.code}: ${sub.error.message}`));
    });

  return {
    sink,
    base,
    run,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
