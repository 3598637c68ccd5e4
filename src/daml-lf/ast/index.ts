/** The complete Daml-LF 2 AST (`ast.ts`) and its decoder. */
export type * from './ast.js';
export { ROUNDING_MODES, FAILURE_CATEGORIES } from './ast.js';
export { BUILTIN_FUNCTIONS } from './builtin-names.js';
export { decodePackageAst, readDalfAst } from './decode-package.js';
