/**
 * Daml-LF / DAR library: reads real DAR files and Daml-LF 2 archives (package ids verified), summarises packages
 * (templates, choices, interfaces, data types with field types), checks smart-contract-upgrade compatibility, and
 * builds archives/DARs from small package descriptions. Isomorphic: Uint8Array in and out, no Node-only APIs.
 */
export { DamlLfError, isDamlLfError, type DamlLfErrorCode } from './errors.js';
export {
  readArchive,
  wrapArchive,
  computePackageId,
  assertSupportedLfVersion,
  lfVersionString,
  toHex,
  type DecodedArchive,
  type EncodedArchive,
} from './archive.js';
export { decodeLf2Package, type DecodePackageOptions } from './lf2-package.js';
export { substituteType } from './type-subst.js';
export { encodePackage, encodeArchive } from './lf2-encode.js';
export {
  parseTypeConRef,
  type PackageDescription,
  type ModuleDescription,
  type TemplateDescription,
  type InterfaceDescription,
  type ChoiceDescription,
  type DataTypeDescription,
} from './lf2-description.js';
export { readDar, readDalf, buildDar, type Dar, type DarArchive, type ReadDarOptions, type BuildDarOptions, type BuiltDar } from './dar.js';
export { parseManifest, renderManifest, MANIFEST_PATH, type DarManifest } from './manifest.js';
export { checkUpgrade, compareVersions, type UpgradeCheck } from './upgrade.js';
export { typeToString, typeEquals, type TypeEqualsOptions } from './type-format.js';
export { readZip, writeZip, crc32, type ZipArchive, type ZipEntry, type ZipWriteEntry, type ZipLimits } from './zip.js';
export { ProtoReader, ProtoWriter, WireType } from './protobuf-wire.js';
export type * from './types.js';
export { PackageIndex, absolutizeType, type ResolvedDataType, type JsonValue } from './package-index.js';
