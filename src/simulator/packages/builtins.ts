/** The simulator's built-in packages, in dependency order (a package may refer to those before it). */
import { demoPackage } from './demo.js';
import { ansPackage, dsoGovernancePackage } from '../wallet/dso-packages.js';
import { mergeDelegationPackage } from '../wallet/merge-delegation.js';
import { amuletPackage } from '../wallet/package.js';
import { stdlibPackages } from './stdlib.js';
import { tokenStandardPackages } from './token-standard.js';
import type { PackageDef } from './types.js';

export const builtinPackages = (): PackageDef[] => [
  ...stdlibPackages,
  demoPackage,
  ...tokenStandardPackages,
  amuletPackage,
  mergeDelegationPackage,
  dsoGovernancePackage,
  ansPackage,
];
