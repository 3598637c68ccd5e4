/**
 * Decoder for the Daml-LF 2 `Package` message (daml_lf2.proto), reduced to signatures: modules, data types,
 * templates, choices, interfaces, keys, interned strings / dotted names / types. Expressions are skipped unread.
 * Three passes: the raw tables (`lf2-raw-package.ts`), types (`lf2-type-decoder.ts`) and definitions
 * (`lf2-defs-decoder.ts`); here the summary is assembled (record fields attached to templates, choices and views).
 */
import { PackageDecoder } from './lf2-defs-decoder.js';
import { readRawPackage } from './lf2-raw-package.js';
import { substituteType } from './type-subst.js';
import type { Choice, DataType, Field, PackageSummary, Type } from './types.js';

/** Fields of `t` when it is (an application of) a record defined in this package. */
function recordFieldsOf(t: Type, records: ReadonlyMap<string, DataType>): Field[] | undefined {
  if (t.kind !== 'con' || t.packageId !== 'self') return undefined;
  const dt = records.get(`${t.module}:${t.name}`);
  if (dt === undefined || dt.kind !== 'record' || dt.params.length !== t.args.length) return undefined;
  const env = new Map<string, Type>();
  dt.params.forEach((p, i) => env.set(p, t.args[i] as Type));
  return dt.fields.map((f) => ({ name: f.name, type: substituteType(f.type, env) }));
}

export interface DecodePackageOptions {
  /** `2.1` etc., recorded in the summary. */
  lfVersion: string;
}

/**
 * Decodes encoded LF2 `Package` bytes (the `ArchivePayload.daml_lf_2` field) into a summary.
 * @param packageId the package's own id (used to qualify self references in `implements` / `requires`).
 */
export function decodeLf2Package(packageBytes: Uint8Array, packageId: string, opts: DecodePackageOptions): PackageSummary {
  const raw = readRawPackage(packageBytes);
  const d = new PackageDecoder(raw, packageId);
  const modules = raw.modules.map((b) => d.module(b));
  const records = new Map<string, DataType>();
  for (const m of modules) for (const dt of m.dataTypes) records.set(`${m.name}:${dt.name}`, dt);
  const withArgFields = (c: Choice): Choice => {
    const argFields = recordFieldsOf(c.argType, records);
    return argFields === undefined ? c : { ...c, argFields };
  };
  for (const m of modules) {
    for (const t of m.templates) {
      // The template's argument is the record of the same name (LF guarantees it; tolerate its absence).
      const rec = records.get(`${m.name}:${t.name}`);
      t.fields = rec?.kind === 'record' ? rec.fields : [];
      t.choices = t.choices.map(withArgFields);
    }
    for (const i of m.interfaces) {
      i.choices = i.choices.map(withArgFields);
      const viewFields = recordFieldsOf(i.viewType, records);
      if (viewFields !== undefined) i.viewFields = viewFields;
    }
  }
  for (const id of raw.imports ?? []) d.deps.add(id);
  d.deps.delete(packageId);
  const summary: PackageSummary = {
    packageId,
    name: raw.metadata ? d.str(raw.metadata.name) : '',
    version: raw.metadata ? d.str(raw.metadata.version) : '',
    lfVersion: opts.lfVersion,
    modules,
    dependencies: [...d.deps].sort(),
  };
  if (raw.metadata?.upgradedPackageId !== undefined) summary.upgradedPackageId = d.str(raw.metadata.upgradedPackageId);
  return summary;
}
