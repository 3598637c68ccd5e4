/**
 * Packages over the JSON Ledger API v2: the package list enriched from the Daml-LF archives themselves (decoded and
 * cached by `package-cache.ts`), a package's detail and the preferred-package query. DAR upload (staged in chunks,
 * validated, uploaded) is `dar-upload.ts`.
 */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { compareVersions, typeToString, type Choice, type Field, type PackageSummary } from '../../daml-lf/index.js';
import {
  type ChoiceView,
  type FieldView,
  type PackageDetail,
  type PackageList,
  type PackageRow,
  type PreferredResult,
  type SynchronizerRef,
  type VettingBounds,
} from '../../ipc/channels/packages.js';
import { ConsoleError, toIpcError } from '../../ipc/errors.js';
import type { LedgerClient } from '../ledger-client.js';
import { listVettingStates } from './vetting.js';

import { decodedPackage, type DecodedPackage } from './package-cache.js';

type S = v3_5.components['schemas'];

// ---- List and detail -----------------------------------------------------------------------------

export async function listSynchronizers(client: LedgerClient): Promise<SynchronizerRef[]> {
  const res = await client.connectedSynchronizers();
  return (res.connectedSynchronizers ?? [])
    .map((s) => ({ synchronizerId: s.synchronizerId, alias: s.synchronizerAlias }))
    .sort((a, b) => a.alias.localeCompare(b.alias) || a.synchronizerId.localeCompare(b.synchronizerId));
}

export async function listPackages(client: LedgerClient): Promise<PackageList> {
  const [ids, participant, synchronizers, states] = await Promise.all([
    client.read(client.api.GET('/v2/packages')),
    client.participantId(),
    listSynchronizers(client),
    listVettingStates(client),
  ]);
  const participantId = participant.participantId;
  const uploaded = new Set(ids.packageIds);
  /** Vetting by this participant, per package id; names/versions from the vetting state when the archive does not say. */
  const vetted = new Map<string, VettingBounds[]>();
  const named = new Map<string, { name: string; version: string }>();
  for (const st of states) {
    for (const p of st.packages) {
      if (p.packageName) named.set(p.packageId, { name: p.packageName, version: p.packageVersion });
      if (st.participantId !== participantId) continue;
      const list = vetted.get(p.packageId) ?? [];
      list.push({ synchronizerId: st.synchronizerId, participantId: st.participantId, validFrom: p.validFrom, validUntil: p.validUntil });
      vetted.set(p.packageId, list);
    }
  }
  const all = [...new Set([...uploaded, ...vetted.keys()])];
  const decoded = await mapLimit([...uploaded], 6, async (id) => {
    try {
      return await decodedPackage(client, id);
    } catch (err) {
      // One unreadable package must not hide the others; the row says why.
      return { packageId: id, summary: null, lfVersion: null, error: toIpcError(err).message, archiveBytes: 0 } satisfies DecodedPackage;
    }
  });
  const byId = new Map(decoded.map((d) => [d.packageId, d]));
  const rows: PackageRow[] = all.map((id) => {
    const d = byId.get(id);
    const s = d?.summary ?? null;
    const n = named.get(id);
    return {
      packageId: id,
      name: s?.name || n?.name || '',
      version: s?.version || n?.version || '',
      lfVersion: d?.lfVersion ?? null,
      uploaded: uploaded.has(id),
      vetted: vetted.get(id) ?? [],
      templateCount: s ? s.modules.reduce((k, m) => k + m.templates.length, 0) : 0,
      interfaceCount: s ? s.modules.reduce((k, m) => k + m.interfaces.length, 0) : 0,
      decodeError: d?.error ?? null,
    };
  });
  rows.sort(
    (a, b) =>
      (a.name === '' ? 1 : 0) - (b.name === '' ? 1 : 0) ||
      a.name.localeCompare(b.name) ||
      compareVersions(b.version, a.version) ||
      a.packageId.localeCompare(b.packageId),
  );
  return { participantId, synchronizers, packages: rows };
}

const fieldView = (f: Field): FieldView => ({ name: f.name, type: typeToString(f.type) });
const choiceView = (c: Choice): ChoiceView => ({
  name: c.name,
  consuming: c.consuming,
  argType: typeToString(c.argType),
  returnType: typeToString(c.returnType),
  argFields: c.argFields ? c.argFields.map(fieldView) : null,
});

export function packageDetail(summary: PackageSummary, archiveBytes: number): PackageDetail {
  return {
    packageId: summary.packageId,
    name: summary.name,
    version: summary.version,
    lfVersion: summary.lfVersion,
    upgradedPackageId: summary.upgradedPackageId ?? null,
    dependencies: [...summary.dependencies].sort(),
    archiveBytes,
    modules: [...summary.modules]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((m) => ({
        name: m.name,
        templates: m.templates.map((t) => ({
          name: t.name,
          qualifiedName: t.qualifiedName,
          fields: t.fields.map(fieldView),
          key: t.key ? typeToString(t.key) : null,
          choices: t.choices.map(choiceView),
          implements: t.implements,
        })),
        interfaces: m.interfaces.map((i) => ({
          name: i.name,
          qualifiedName: i.qualifiedName,
          viewType: typeToString(i.viewType),
          viewFields: i.viewFields ? i.viewFields.map(fieldView) : null,
          choices: i.choices.map(choiceView),
          methods: i.methods.map((x) => ({ name: x.name, type: typeToString(x.type) })),
          requires: i.requires,
        })),
        dataTypes: m.dataTypes
          .filter((d) => d.serializable)
          .map((d) => ({
            name: d.name,
            kind: d.kind,
            params: d.params,
            fields:
              d.kind === 'enum'
                ? d.constructors.map((c) => ({ name: c, type: '' }))
                : (d.kind === 'record' ? d.fields : d.constructors).map(fieldView),
          })),
      })),
  };
}

export async function getPackage(client: LedgerClient, packageId: string): Promise<PackageDetail> {
  const d = await decodedPackage(client, packageId);
  if (!d.summary) {
    throw new ConsoleError('INTERNAL', `Package ${packageId} could not be decoded: ${d.error ?? 'unknown reason'}`, undefined, [
      { path: 'packageId', message: d.error ?? 'not decodable' },
    ]);
  }
  return packageDetail(d.summary, d.archiveBytes);
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// ---- Preferred packages --------------------------------------------------------------------------

export async function preferredPackages(
  client: LedgerClient,
  req: { requirements: Array<{ packageName: string; parties: string[] }>; synchronizerId: string | null; vettingValidAt: string | null },
): Promise<PreferredResult> {
  const targets: Array<string | null> = req.synchronizerId
    ? [req.synchronizerId]
    : (await listSynchronizers(client)).map((s) => s.synchronizerId);
  if (targets.length === 0) targets.push(null);
  const results = await Promise.all(
    targets.map(async (sync) => {
      const body: S['GetPreferredPackagesRequest'] = {
        packageVettingRequirements: req.requirements.map((r) => ({ packageName: r.packageName, parties: r.parties })),
        ...(sync ? { synchronizerId: sync } : {}),
        ...(req.vettingValidAt ? { vettingValidAt: req.vettingValidAt } : {}),
      };
      try {
        const res = await client.read(client.api.POST('/v2/interactive-submission/preferred-packages', { body }));
        return {
          requestedSynchronizerId: sync,
          synchronizerId: res.synchronizerId,
          references: res.packageReferences.map((p) => ({
            packageId: p.packageId,
            packageName: p.packageName,
            packageVersion: p.packageVersion,
          })),
          error: null,
        };
      } catch (err) {
        if (err instanceof ConsoleError && err.code === 'UNREACHABLE') throw err;
        return { requestedSynchronizerId: sync, synchronizerId: sync, references: [], error: toIpcError(err) };
      }
    }),
  );
  return { results };
}
