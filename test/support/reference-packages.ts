/**
 * The real Splice packages of ../shared/reference/dars as a participant would serve them (`GET /v2/packages/{id}`),
 * for tests that describe transactions with real Daml-LF types. Missing reference files fail the test, never skip it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeArchive, readDar, type Type } from '../../src/daml-lf/index.js';
import type { AppDb } from '../../src/services/app-db.js';
import { VerifiedPackages, type PackageFetcher, type TypeSource } from '../../src/services/signing/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REFERENCE_DARS = path.resolve(repoRoot, '../shared/reference/dars');

/** Main package ids of the reference DARs used by the signing fixtures. */
export const REAL = {
  amulet: 'fb10433a48c24f30076a7aee03a3e314b7ab02fe9a22e2069e3af92d2b6ac88a',
  wallet: '727c0fb9711d59b506fbb3cff2342e55eb583bb88682a946220525c304feca4a',
  tokenTransferInstruction: '55ba4deb0ad4662c4168b39859738a0e91388d252286480c7331b3f71a517281',
  tokenHolding: '718a0f77e505a8de22f188bd4c87fe74101274e9d4cb1bfac7d09aec7158d35b',
  tokenMetadata: '4ded6b668cb3b64f7a88a30874cd41c75829f5e064b3fbbadf41ec7e8363354f',
} as const;

let archives: Map<string, Uint8Array> | null = null;

/** Every archive of every reference DAR, by package id. */
export function referenceArchives(): Map<string, Uint8Array> {
  if (archives) return archives;
  if (!existsSync(REFERENCE_DARS)) throw new Error(`The reference DARs are missing: ${REFERENCE_DARS}`);
  const out = new Map<string, Uint8Array>();
  for (const f of readdirSync(REFERENCE_DARS).filter((n) => n.endsWith('.dar'))) {
    for (const a of readDar(new Uint8Array(readFileSync(path.join(REFERENCE_DARS, f)))).archives) out.set(a.packageId, a.bytes);
  }
  const missing = Object.entries(REAL).filter(([, id]) => !out.has(id));
  if (missing.length > 0)
    throw new Error(`Reference packages missing from ${REFERENCE_DARS}: ${missing.map(([name, id]) => `${name} (${id})`).join(', ')}`);
  archives = out;
  return out;
}

/**
 * Types for verification: a fresh store on `db` that fetches from the reference DARs (plus `extra` archives) the way
 * the console fetches from a participant — every archive's id is verified by the store.
 */
export function referenceTypes(db: AppDb, extra: Uint8Array[] = [featuredAppProxies.bytes]): TypeSource & { fetch: PackageFetcher } {
  const byId = referenceArchives();
  const packages = new VerifiedPackages(db);
  for (const bytes of extra) packages.add(bytes, 'import');
  return {
    packages,
    fetch: (id) => {
      const bytes = byId.get(id);
      return bytes ? Promise.resolve(bytes) : Promise.reject(new Error(`the reference participant has no package ${id}`));
    },
  };
}

const FEATURED_V1 = '7804375fe5e4c6d5afe067bd314c42fe0b7d005a1300019c73154dd939da4dda';
const con = (packageId: string, module: string, name: string, args: Type[] = []): Type => ({ kind: 'con', packageId, module, name, args });
const prim = (p: Extract<Type, { kind: 'prim' }>['prim'], ...args: Type[]): Type => ({ kind: 'prim', prim: p, args });
const TI = 'Splice.Api.Token.TransferInstructionV1';

/**
 * A stand-in for Splice's splice-util-featured-app-proxies (not among the reference DARs): the `WalletUserProxy`
 * template with its proxy choices, typed like the real one (`ProxyArg a` around the token standard's real choice
 * arguments). A real LF archive, so its package id is the SHA-256 of its payload like any other.
 */
export const featuredAppProxies = (() => {
  const M = 'Splice.Util.FeaturedApp.WalletUserProxy';
  const proxyArg = (arg: Type): Type => con('self', M, 'ProxyArg', [arg]);
  const proxied = (choice: string, iface: string) => ({
    name: `WalletUserProxy_${choice}`,
    consuming: false,
    argFields: [
      { name: 'cid', type: prim('ContractId', con(REAL.tokenTransferInstruction, TI, iface)) },
      { name: 'proxyArg', type: proxyArg(con(REAL.tokenTransferInstruction, TI, choice)) },
    ],
  });
  const archive = encodeArchive({
    name: 'splice-util-featured-app-proxies',
    version: '1.0.0',
    modules: [
      {
        name: M,
        dataTypes: [
          {
            kind: 'record',
            name: 'ProxyArg',
            params: ['a'],
            fields: [
              { name: 'user', type: prim('Party') },
              { name: 'choiceArg', type: { kind: 'var', name: 'a', args: [] } },
              {
                name: 'featuredAppRightCid',
                type: prim('ContractId', con(FEATURED_V1, 'Splice.Api.FeaturedAppRightV1', 'FeaturedAppRight')),
              },
            ],
          },
        ],
        templates: [
          {
            name: 'WalletUserProxy',
            fields: [
              { name: 'provider', type: prim('Party') },
              { name: 'providerWeight', type: prim('Numeric', { kind: 'nat', value: 10 }) },
              { name: 'userWeight', type: prim('Numeric', { kind: 'nat', value: 10 }) },
              { name: 'extraBeneficiaries', type: prim('List', con(FEATURED_V1, 'Splice.Api.FeaturedAppRightV1', 'AppRewardBeneficiary')) },
              { name: 'optAllowList', type: prim('Optional', prim('List', prim('Party'))) },
            ],
            choices: [
              proxied('TransferFactory_Transfer', 'TransferFactory'),
              proxied('TransferInstruction_Accept', 'TransferInstruction'),
              proxied('TransferInstruction_Reject', 'TransferInstruction'),
              proxied('TransferInstruction_Withdraw', 'TransferInstruction'),
              { name: 'WalletUserProxy_PublicFetch', consuming: false, argFields: [{ name: 'actor', type: prim('Party') }] },
            ],
          },
        ],
      },
    ],
  });
  return { packageId: archive.packageId, bytes: archive.bytes };
})();
