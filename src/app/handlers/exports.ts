/**
 * `exports.run`: makes the file the renderer asked for and hands it to the host's sink (browser download or Electron
 * save dialog), reporting progress and where it went. Sealed files (key backups, policy files) are made here and
 * never travel to the renderer; update ranges stream from the participant straight into the sink.
 */
import type { ExportEvent, exportsSubscriptions } from '../../ipc/channels/exports.js';
import type { ParsedSubscriptionParams } from '../../ipc/contract.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import { exportPolicyFile, exportKeyBackup } from '../../services/signing/index.js';
import { textFile, type ExportFile, type ExportSink } from '../../services/exports/delivery.js';
import { exportFilePath, writeUpdatesNdjson } from '../../services/ledger/export-ndjson.js';
import { buildUpdateFormat } from '../../services/ledger/updates.js';
import type { HandlerDeps } from './core.js';
import { need, stamp } from './signing-common.js';
import type { SubscriptionHandlersOf } from './types.js';

export type ExportsDeps = HandlerDeps & { exportSink?: ExportSink };

async function fileFor(d: ExportsDeps, req: ParsedSubscriptionParams<'exports.run'>): Promise<ExportFile> {
  switch (req.kind) {
    case 'audit':
      return textFile(`signing-audit-${stamp()}.ndjson`, 'application/x-ndjson', await need(d).services.audit.export());
    case 'keys.backup': {
      const s = need(d).services;
      const text = await exportKeyBackup(s.keys, req.fingerprints, req.passphrase, s.policies);
      return textFile(`canton-console-keys-${stamp()}.json`, 'application/json', text);
    }
    case 'policy': {
      const s = need(d).services;
      return textFile(
        `canton-console-policies-${stamp()}.json`,
        'application/json',
        await exportPolicyFile(s.keys, s.policies, req.fingerprints, req.passphrase),
      );
    }
    case 'file':
      return textFile(req.fileName, 'application/json', req.text);
    case 'updates':
      return updatesFile(d, req);
  }
}

async function updatesFile(
  d: ExportsDeps,
  req: Extract<ParsedSubscriptionParams<'exports.run'>, { kind: 'updates' }>,
): Promise<ExportFile> {
  const { profile, client } = d.activeClient();
  const auth = await d.profiles.streamAuth(profile.id);
  const ledgerEnd = (await client.ledgerEnd()).offset ?? 0;
  const end = Math.min(req.endInclusive ?? ledgerEnd, ledgerEnd);
  const begin = Math.min(req.beginExclusive, end);
  const span = end - begin;
  return {
    // the same name rules as ever: a plain name, given the .ndjson extension
    fileName: exportFilePath('/', req.fileName).slice(1),
    mediaType: 'application/x-ndjson',
    async write(out, progress, signal) {
      const { lines } = await writeUpdatesNdjson(
        {
          baseUrl: client.url,
          ...auth,
          updateFormat: buildUpdateFormat(req.filter),
          beginExclusive: begin,
          endInclusive: end,
          signal,
          onProgress: (p) => {
            progress({ lines: p.lines, fraction: span > 0 ? Math.min(1, (p.offset - begin) / span) : 1 });
          },
        },
        out,
      );
      return { lines };
    },
  };
}

export function exportsSubscriptionHandlers(d: ExportsDeps): SubscriptionHandlersOf<typeof exportsSubscriptions> {
  return {
    'exports.run': (req, emit: (e: ExportEvent) => void) => {
      const controller = new AbortController();
      let finished = false;
      void (async () => {
        const sink = d.exportSink;
        if (!sink) throw new ConsoleError('INTERNAL', 'Exports are not available in this console host');
        const file = await fileFor(d, req);
        if (controller.signal.aborted) return;
        const delivered = await sink.deliver(
          file,
          {
            ready: (url) => {
              emit({ type: 'ready', fileName: file.fileName, url });
            },
            progress: (p) => {
              emit({ type: 'progress', ...p });
            },
          },
          controller.signal,
        );
        finished = true;
        emit(delivered ? { type: 'done', ...delivered } : { type: 'cancelled' });
      })().catch((err: unknown) => {
        finished = true;
        if (!controller.signal.aborted) emit({ type: 'error', error: toIpcError(err) });
      });
      return () => {
        if (!finished) controller.abort();
      };
    },
  };
}
