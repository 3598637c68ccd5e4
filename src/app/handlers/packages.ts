/** Handlers of the packages channels: list and decoded detail, chunked DAR upload with validation, vetting, preferred packages. */
import type { packagesChannels } from '../../ipc/channels/packages.js';
import { DarUploads, getPackage, listPackages, preferredPackages, uploadDar, validateDar } from '../../services/ledger/packages.js';
import { listVetting, updateVetting } from '../../services/ledger/vetting.js';
import type { LedgerClient } from '../../services/ledger-client.js';
import type { CallContext } from '../../ipc/router.js';
import type { HandlersOf } from './types.js';

export type PackagesDeps = { activeClient: () => { client: LedgerClient } };

export function packagesHandlers(d: PackagesDeps, uploads: DarUploads = new DarUploads()): HandlersOf<typeof packagesChannels> {
  const client = () => d.activeClient().client;
  /** Reads follow the caller's cancel; writes do not (a half-sent write is worse than a slow one). */
  const reader = (ctx: CallContext) => client().withSignal(ctx.signal);
  return {
    'packages.list': async (_req, ctx) => listPackages(reader(ctx)),
    'packages.get': async ({ packageId }, ctx) => getPackage(reader(ctx), packageId),

    'packages.upload.begin': async ({ fileName, size }) => uploads.begin(fileName, size),
    'packages.upload.chunk': async ({ uploadId, offset, data }) => ({ received: uploads.chunk(uploadId, offset, data) }),
    'packages.upload.validate': async ({ uploadId, synchronizerId }) => validateDar(client(), uploads, uploadId, synchronizerId),
    'packages.upload.commit': async (req) => uploadDar(client(), uploads, req),
    'packages.upload.cancel': async ({ uploadId }) => ({ cancelled: uploads.cancel(uploadId) }),

    'packages.vetting.list': async (_req, ctx) => listVetting(reader(ctx)),
    'packages.vetting.update': async (req) => updateVetting(client(), req),

    'packages.preferred': async (req, ctx) => preferredPackages(reader(ctx), req),
  };
}
