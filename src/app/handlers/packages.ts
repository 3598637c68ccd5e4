/** Handlers of the packages channels: list and decoded detail, chunked DAR upload with validation, vetting, preferred packages. */
import type { packagesChannels } from '../../ipc/channels/packages.js';
import { DarUploads, uploadDar, validateDar } from '../../services/ledger/dar-upload.js';
import { getPackage, listPackages, preferredPackages } from '../../services/ledger/packages.js';
import { listVetting, updateVetting } from '../../services/ledger/vetting.js';
import type { LedgerClient } from '../../services/ledger-client.js';
import type { CallContext } from '../../ipc/router.js';
import type { HandlersOf } from './types.js';
import type { AdminAudit, AdminRecord } from '../../services/admin-audit.js';

export type PackagesDeps = { activeClient: () => { client: LedgerClient }; adminAudit?: AdminAudit | undefined };

export function packagesHandlers(d: PackagesDeps, uploads: DarUploads = new DarUploads()): HandlersOf<typeof packagesChannels> {
  const client = () => d.activeClient().client;
  /** Reads follow the caller's cancel; writes do not (a half-sent write is worse than a slow one). */
  const reader = (ctx: CallContext) => client().withSignal(ctx.signal);
  /** Uploads and vetting changes are recorded in the audit log (who, what, done or failed); dry runs change nothing and are not. */
  const audited = <T>(what: AdminRecord<T>, fn: () => Promise<T>): Promise<T> => (d.adminAudit ? d.adminAudit.record(what, fn) : fn());
  return {
    'packages.list': async (_req, ctx) => listPackages(reader(ctx)),
    'packages.get': async ({ packageId }, ctx) => getPackage(reader(ctx), packageId),

    'packages.upload.begin': ({ fileName, size }) => uploads.begin(fileName, size),
    'packages.upload.chunk': ({ uploadId, offset, data }) => ({ received: uploads.chunk(uploadId, offset, data) }),
    'packages.upload.validate': async ({ uploadId, synchronizerId }) => validateDar(client(), uploads, uploadId, synchronizerId),
    'packages.upload.commit': async (req) => {
      const fileName = uploads.get(req.uploadId).fileName;
      return audited(
        {
          action: 'dar-upload',
          summary:
            `Upload DAR ${fileName}${req.vetAllPackages ? ' and vet its packages' : ''}` +
            (req.synchronizerId ? ` on ${req.synchronizerId}` : ''),
          done: (r) =>
            `Uploaded DAR ${fileName}: main package ${r.mainPackageId} ` +
            `and ${r.packageIds.length - 1} dependencies${r.vetted ? ', vetted' : ''}`,
        },
        () => uploadDar(client(), uploads, req),
      );
    },
    'packages.upload.cancel': ({ uploadId }) => ({ cancelled: uploads.cancel(uploadId) }),

    'packages.vetting.list': async (_req, ctx) => listVetting(reader(ctx)),
    'packages.vetting.update': async (req) =>
      req.dryRun
        ? updateVetting(client(), req)
        : audited(
            {
              action: 'vetting',
              summary:
                req.changes.map((c) => `${c.op === 'vet' ? 'Vet' : 'Unvet'} ${c.packageId}`).join('; ') +
                (req.synchronizerId ? ` on ${req.synchronizerId}` : '') +
                (req.force.length > 0 ? ` (forced: ${req.force.join(', ')})` : ''),
            },
            () => updateVetting(client(), req),
          ),

    'packages.preferred': async (req, ctx) => preferredPackages(reader(ctx), req),
  };
}
