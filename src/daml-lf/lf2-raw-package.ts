/**
 * First pass over a Daml-LF 2 `Package` message (daml_lf2.proto): the interning tables, metadata, imports and the raw
 * bytes of each module, which the signature decoder then reads. Field numbers are cited as `Message.field_name = N`.
 */
import { DamlLfError } from './errors.js';
import { ProtoReader, WireType } from './protobuf-wire.js';

export interface RawPackage {
  modules: Uint8Array[];
  strings: string[];
  dottedNames: number[][];
  internedTypes: Uint8Array[];
  metadata?: { name: number; version: number; upgradedPackageId?: number };
  imports?: string[];
}

export function fail(message: string): never {
  throw new DamlLfError('MALFORMED_PACKAGE', `Package: ${message}`);
}

/** First pass over `Package`: tables and raw module bytes. */
export function readRawPackage(bytes: Uint8Array): RawPackage {
  const r = new ProtoReader(bytes, 'MALFORMED_PACKAGE', 'Package');
  const raw: RawPackage = { modules: [], strings: [], dottedNames: [], internedTypes: [] };
  while (!r.done) {
    const { field, wireType } = r.tag();
    switch (field) {
      case 1: // Package.modules = 1
        r.expect(field, wireType, WireType.LEN);
        raw.modules.push(r.bytes());
        break;
      case 2: // Package.interned_strings = 2
        r.expect(field, wireType, WireType.LEN);
        raw.strings.push(r.string());
        break;
      case 3: {
        // Package.interned_dotted_names = 3; InternedDottedName.segments_interned_str = 1
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('InternedDottedName');
        const segments: number[] = [];
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) m.repeatedInt32(t.wireType, segments);
          else m.skip(t.wireType);
        }
        raw.dottedNames.push(segments);
        break;
      }
      case 4: {
        // Package.metadata = 4; PackageMetadata.name_interned_str = 1, version_interned_str = 2, upgraded_package_id = 3
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('PackageMetadata');
        const md: { name: number; version: number; upgradedPackageId?: number } = { name: 0, version: 0 };
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) {
            m.expect(t.field, t.wireType, WireType.VARINT);
            md.name = m.int32();
          } else if (t.field === 2) {
            m.expect(t.field, t.wireType, WireType.VARINT);
            md.version = m.int32();
          } else if (t.field === 3) {
            // UpgradedPackageId.upgraded_package_id_interned_str = 1
            m.expect(t.field, t.wireType, WireType.LEN);
            const u = m.message('UpgradedPackageId');
            md.upgradedPackageId = 0;
            while (!u.done) {
              const ut = u.tag();
              if (ut.field === 1) {
                u.expect(ut.field, ut.wireType, WireType.VARINT);
                md.upgradedPackageId = u.int32();
              } else u.skip(ut.wireType);
            }
          } else m.skip(t.wireType);
        }
        raw.metadata = md;
        break;
      }
      case 5: // Package.interned_types = 5
        r.expect(field, wireType, WireType.LEN);
        raw.internedTypes.push(r.bytes());
        break;
      case 9: {
        // Package.package_imports = 9; PackageImports.imported_packages = 1
        r.expect(field, wireType, WireType.LEN);
        const m = r.message('PackageImports');
        const imports: string[] = [];
        while (!m.done) {
          const t = m.tag();
          if (t.field === 1) {
            m.expect(t.field, t.wireType, WireType.LEN);
            imports.push(m.string());
          } else m.skip(t.wireType);
        }
        raw.imports = imports;
        break;
      }
      default: // interned_kinds = 6, interned_exprs = 7, no_imported_packages_reason = 8: not needed
        r.skip(wireType);
    }
  }
  return raw;
}
