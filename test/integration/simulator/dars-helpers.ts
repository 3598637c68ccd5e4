/** DAR fixtures built with `src/daml-lf` (buildDar) and an upload helper validated against the spec. */
import { buildDar, encodeArchive } from '../../../src/daml-lf/index.js';
import type { PackageDescription, Type } from '../../../src/daml-lf/index.js';
import { openApi } from './helpers.js';

const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });
export const PARTY = prim('Party');
export const TEXT = prim('Text');
export const NUM10 = prim('Numeric', { kind: 'nat', value: 10 });

/** A types-only dependency package. */
export function typesPackage(): PackageDescription {
  return {
    name: 'dar-test-types',
    version: '1.0.0',
    modules: [
      {
        name: 'Types',
        dataTypes: [
          { kind: 'enum', name: 'Color', constructors: ['Red', 'Green'] },
          {
            kind: 'record',
            name: 'Meta',
            fields: [
              { name: 'label', type: TEXT },
              { name: 'score', type: prim('Int64') },
            ],
          },
          {
            kind: 'variant',
            name: 'Detail',
            constructors: [
              { name: 'None_', type: prim('Unit') },
              { name: 'Note', type: TEXT },
            ],
          },
        ],
      },
    ],
  };
}

/** The main package: template Assets:Asset using the dependency's types; v2 adds an Optional field. */
export function assetsPackage(
  version: string,
  typesId: string,
  opts: { extraOptional?: boolean; breakIt?: boolean } = {},
): PackageDescription {
  const con = (name: string): Type => ({ kind: 'con', packageId: typesId, module: 'Types', name, args: [] });
  return {
    name: 'dar-test-assets',
    version,
    modules: [
      {
        name: 'Assets',
        templates: [
          {
            name: 'Asset',
            fields: [
              { name: 'issuer', type: PARTY },
              { name: 'owner', type: PARTY },
              { name: 'amount', type: opts.breakIt ? TEXT : NUM10 },
              { name: 'tags', type: prim('List', TEXT) },
              { name: 'note', type: prim('Optional', TEXT) },
              { name: 'color', type: con('Color') },
              { name: 'meta', type: con('Meta') },
              { name: 'detail', type: con('Detail') },
              { name: 'watchers', type: prim('List', PARTY) },
              ...(opts.extraOptional ? [{ name: 'memo', type: prim('Optional', TEXT) }] : []),
            ],
            // executable parts: signatories, observers, the Archive choice and the controllers of Asset_Transfer
            signatories: ['issuer'],
            observers: ['owner', 'watchers'],
            archive: true,
            choices: [
              {
                name: 'Asset_Transfer',
                argFields: [{ name: 'newOwner', type: PARTY }],
                controllers: ['owner'],
                returnType: prim('ContractId', { kind: 'con', packageId: 'self', module: 'Assets', name: 'Asset', args: [] }),
              },
            ],
          },
        ],
      },
    ],
  };
}

export interface Fixtures {
  typesId: string;
  v1: ReturnType<typeof buildDar>;
  v2: ReturnType<typeof buildDar>;
  v3Incompatible: ReturnType<typeof buildDar>;
  missingDep: ReturnType<typeof buildDar>;
}

export function fixtures(): Fixtures {
  const types = typesPackage();
  const typesId = encodeArchive(types).packageId;
  return {
    typesId,
    v1: buildDar(assetsPackage('1.0.0', typesId), [types]),
    v2: buildDar(assetsPackage('2.0.0', typesId, { extraOptional: true }), [types]),
    v3Incompatible: buildDar(assetsPackage('3.0.0', typesId, { extraOptional: true, breakIt: true }), [types]),
    missingDep: buildDar(assetsPackage('1.5.0', typesId)),
  };
}

export interface UploadResult {
  status: number;
  json: unknown;
  text: string;
}

/** POSTs bytes as application/octet-stream; JSON answers are validated against the spec. */
export async function postBytes(base: string, specPath: string, bytes: Uint8Array, query = ''): Promise<UploadResult> {
  const res = await fetch(`${base}${specPath}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: Buffer.from(bytes),
  });
  const text = await res.text();
  const ct = res.headers.get('content-type') ?? '';
  let json: unknown;
  if (ct.includes('application/json')) {
    json = JSON.parse(text);
    openApi().assertResponse('POST', specPath, res.status, json);
  }
  return { status: res.status, json, text };
}

export const errorCode = (r: UploadResult): string => (r.json as { code: string }).code;
