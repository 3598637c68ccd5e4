/** The simulator's built-in packages, in dependency order (a package may refer to those before it). */
import { demoPackage } from './demo.js';
import { mergeDelegationPackage } from '../wallet/merge-delegation.js';
import { amuletPackage } from '../wallet/package.js';
import { tokenStandardPackages } from './token-standard.js';
import type { PackageDef } from './types.js';

export const builtinPackages = (): PackageDef[] => [demoPackage, ...tokenStandardPackages, amuletPackage, mergeDelegationPackage];
