/**
 * Full Daml-LF 2 package decoding: `Package` bytes (or a whole .dalf) → `PackageAst`. Tables are read first (their
 * order on the wire is free), then interned kinds and types (each may refer only to earlier entries), then modules.
 */
import { assertSupportedLfVersion, lfVersionString, readArchive } from '../archive.js';
import { ProtoReader, WireType } from '../protobuf-wire.js';
import type { PackageAst } from './ast.js';
import { decodeModule } from './decode-defs.js';
import { decodeExpr } from './decode-expr.js';
import { fail, fields, i32, msg, LfReader, type RawTables } from './reader.js';

interface RawPackage extends RawTables {
  modules: Uint8Array[];
  metadata?: { name: number; version: number; upgradedPackageId?: number };
  noImportsReason?: string;
}

/**
 * Package: modules = 1, interned_strings = 2, interned_dotted_names = 3, metadata = 4, interned_types = 5,
 * interned_kinds = 6, interned_exprs = 7, no_imported_packages_reason = 8, package_imports = 9.
 */
function readTables(bytes: Uint8Array): RawPackage {
  const r = new ProtoReader(bytes, 'MALFORMED_PACKAGE', 'Package');
  const raw: RawPackage = { modules: [], strings: [], dottedNames: [], kinds: [], types: [], exprs: [] };
  const lenBytes = (f: number, wt: number, into: Uint8Array[]): void => {
    r.expect(f, wt, WireType.LEN);
    into.push(r.bytes());
  };
  fields(r, (f, wt) => {
    switch (f) {
      case 1:
        lenBytes(f, wt, raw.modules);
        return;
      case 5:
        lenBytes(f, wt, raw.types);
        return;
      case 6:
        lenBytes(f, wt, raw.kinds);
        return;
      case 7:
        lenBytes(f, wt, raw.exprs);
        return;
      case 2:
        r.expect(f, wt, WireType.LEN);
        raw.strings.push(r.string());
        return;
      case 3: {
        const m = msg(r, f, wt, 'InternedDottedName');
        const segs: number[] = [];
        fields(m, (g, gw) => {
          if (g === 1) m.repeatedInt32(gw, segs);
          else return false;
        });
        raw.dottedNames.push(segs);
        return;
      }
      case 4: {
        // PackageMetadata: name_interned_str = 1, version_interned_str = 2, upgraded_package_id = 3 (upgraded_package_id_interned_str = 1)
        const m = msg(r, f, wt, 'PackageMetadata');
        const md: { name: number; version: number; upgradedPackageId?: number } = { name: 0, version: 0 };
        fields(m, (g, gw) => {
          if (g === 1) md.name = i32(m, g, gw);
          else if (g === 2) md.version = i32(m, g, gw);
          else if (g === 3) {
            const u = msg(m, g, gw, 'UpgradedPackageId');
            md.upgradedPackageId = 0;
            fields(u, (h, hw) => {
              if (h === 1) md.upgradedPackageId = i32(u, h, hw);
              else return false;
            });
          } else return false;
        });
        raw.metadata = md;
        return;
      }
      case 8:
        r.expect(f, wt, WireType.LEN);
        raw.noImportsReason = r.string();
        delete raw.imports;
        return;
      case 9: {
        const m = msg(r, f, wt, 'PackageImports');
        const imports: string[] = [];
        fields(m, (g, gw) => {
          if (g !== 1) return false;
          m.expect(g, gw, WireType.LEN);
          imports.push(m.string());
        });
        raw.imports = imports;
        delete raw.noImportsReason;
        return;
      }
      default:
        return false;
    }
  });
  return raw;
}

/** Decodes encoded LF2 `Package` bytes (`ArchivePayload.daml_lf_2`) into the complete AST. */
export function decodePackageAst(packageBytes: Uint8Array, packageId: string, lfVersion: string): PackageAst {
  const raw = readTables(packageBytes);
  const c = new LfReader(raw, packageId);
  c.exprDecoder = (r, depth) => decodeExpr(c, r, depth);
  // interned expressions are decoded on first use; decode the rest so that every entry is checked
  const modules = raw.modules.map((b) => decodeModule(c, b));
  for (let i = 0; i < raw.exprs.length; i++) c.internedExpr(i, 0);
  const pkg: PackageAst = {
    packageId,
    lfVersion,
    name: raw.metadata ? c.str(raw.metadata.name) : '',
    version: raw.metadata ? c.str(raw.metadata.version) : '',
    modules,
    interned: {
      strings: raw.strings.length,
      dottedNames: raw.dottedNames.length,
      types: raw.types.length,
      kinds: raw.kinds.length,
      exprs: raw.exprs.length,
    },
  };
  if (raw.metadata?.upgradedPackageId !== undefined) pkg.upgradedPackageId = c.str(raw.metadata.upgradedPackageId);
  if (raw.imports) pkg.imports = raw.imports;
  if (raw.noImportsReason !== undefined) pkg.noImportsReason = raw.noImportsReason;
  return pkg;
}

/** Decodes a .dalf (`Archive`): hash verified (package id = SHA-256 of the payload), LF 2 only, complete AST. */
export function readDalfAst(bytes: Uint8Array): PackageAst {
  const a = readArchive(bytes);
  assertSupportedLfVersion(a);
  if (a.lfMajor !== 2) fail('not a Daml-LF 2 archive');
  return decodePackageAst(a.packageBytes, a.packageId, lfVersionString(a));
}
