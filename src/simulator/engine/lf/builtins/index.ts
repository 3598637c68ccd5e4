/** All builtin functions (each module registers its own). */
import './arithmetic.js';
import './collections.js';
import './text-time.js';

export { builtinValue, knownBuiltins, arithmeticError, litToText } from './registry.js';
