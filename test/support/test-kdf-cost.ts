/**
 * vitest setup file: passphrase-encrypted files written by the tests use scrypt N=2^14 (the weakest N the console
 * reads) instead of 2^17, so the suite does not spend most of some files' time in key derivation. Tests of the
 * console's own parameters switch back with `useTestScryptCost(false)`; processes the tests start (the CLI bundles)
 * always use the console's parameters.
 */
import { useTestScryptCost } from '../../src/services/signing/passphrase-envelope.js';

useTestScryptCost(true);
