/** The Daml-LF 2 type checker (daml-lf-2.rst "Type system"). */
export { LfTypeChecker, type CheckIssue, type PackageCheck } from './defs.js';
export { LfTypeError } from './error.js';
export { BUILTIN_SIGNATURES, builtinType } from './builtins.js';
