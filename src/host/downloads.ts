/**
 * Browser-host delivery of exports: each export waits under a random one-time id until the renderer fetches
 * `GET /exports/<id>` (an ordinary browser download, same origin), then the file is streamed into the HTTP response
 * as it is produced — a large update range never sits in memory or in the renderer. An id serves once and expires
 * after a minute; knowing it is the only way to the file, and it travels only over the token-guarded IPC socket.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConsoleError } from '../ipc/errors.js';
import { pump, type Delivered, type DeliveryEvents, type ExportFile, type ExportSink } from '../services/exports/delivery.js';

/** How long a prepared export waits for the browser to fetch it. */
export const DOWNLOAD_WAIT_MS = 60_000;

const PATH = /^\/exports\/([0-9a-f]{32})$/;

interface Pending {
  file: ExportFile;
  events: DeliveryEvents;
  signal: AbortSignal;
  settle: (result: Delivered | Error) => void;
}

export class DownloadSink implements ExportSink {
  private readonly pending = new Map<string, Pending>();

  deliver(file: ExportFile, events: DeliveryEvents, signal: AbortSignal): Promise<Delivered | null> {
    const id = randomBytes(16).toString('hex');
    return new Promise<Delivered | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        done(new ConsoleError('UNREACHABLE', 'The browser did not fetch the export within a minute; start it again'));
      }, DOWNLOAD_WAIT_MS);
      timer.unref();
      const onAbort = () => {
        done(new ConsoleError('CANCELLED', 'The export was cancelled'));
      };
      const done = (result: Delivered | Error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { file, events, signal, settle: done });
      events.ready(`/exports/${id}`);
    });
  }

  /** Serves `GET /exports/<id>`; false when the request is not for an export (the caller serves it otherwise). */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const match = PATH.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (!req.url?.startsWith('/exports/')) return false;
    const id = match?.[1];
    const entry = id ? this.pending.get(id) : undefined;
    if (!id || !entry || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No such export (each link serves once)');
      return true;
    }
    // one fetch only: a second request for the same id finds nothing
    this.pending.delete(id);
    const { file, events, signal, settle } = entry;
    res.writeHead(200, {
      'content-type': file.mediaType,
      // the file name is a plain name (letters, digits, . _ - and space: ExportFileNameSchema or the console's own)
      'content-disposition': `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._ -]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    pump(file, res, events, signal).then(
      ({ bytes, lines }) => {
        settle({ fileName: file.fileName, bytes, ...(lines !== undefined ? { lines } : {}), location: { kind: 'download' } });
      },
      (err: unknown) => {
        res.destroy();
        settle(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return true;
  }
}
