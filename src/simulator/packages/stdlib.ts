/**
 * Built-in stand-ins for the two stable Daml standard-library packages the token-standard API packages refer to (real
 * DARs ship the real ones): `ghc-stdlib-DA-Internal-Template` 1.0.0, whose `DA.Internal.Template:Archive` is the
 * argument of every implicit `Archive` choice, and `daml-stdlib-DA-Time-Types` 1.0.0 with `DA.Time.Types:RelTime`.
 * Their shapes are those of the real packages (checked against the reference DARs in
 * `test/integration/simulator/token-standard-shapes.test.ts`).
 */
import type { FieldType, PackageDef } from './types.js';
import { TEMPLATE_STDLIB } from './lf.js';

export const TIME_TYPES_STDLIB = 'daml-stdlib-DA-Time-Types';

/** `DA.Time.Types:RelTime` — JSON `{ "microseconds": "…" }`. */
export const relTime: FieldType = {
  kind: 'Record',
  name: 'DA.Time.Types:RelTime',
  package: TIME_TYPES_STDLIB,
  fields: [{ name: 'microseconds', type: { kind: 'Int64' } }],
};

const archiveRecord: FieldType = { kind: 'Record', name: 'DA.Internal.Template:Archive', package: TEMPLATE_STDLIB, fields: [] };

/** Data-only packages: their records are listed in `types`. */
export const stdlibPackages: PackageDef[] = [
  { name: TEMPLATE_STDLIB, version: '1.0.0', templates: [], interfaces: [], types: [archiveRecord] },
  { name: TIME_TYPES_STDLIB, version: '1.0.0', templates: [], interfaces: [], types: [relTime] },
];
