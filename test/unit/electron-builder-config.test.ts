/**
 * electron-builder.yml, checked against electron-builder's own JSON schema (so a misspelt key,
 * which electron-builder would reject at packaging time, fails here) and for the release choices:
 * identity, installers per OS, asar with native modules unpacked, and the Electron fuses.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAIN_EXTERNALS } from '../../scripts/build-electron.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

type TargetEntry = string | { target: string };
function targetsOf(platform: string): string[] {
  const section = config[platform] as { target?: TargetEntry | TargetEntry[] } | undefined;
  const raw = section?.target;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((t) => (typeof t === 'string' ? t : t.target));
}

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's schema", () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('identifies the product', () => {
    expect(config.appId).toBe('network.canton.operator-console');
    expect(config.productName).toBe('Canton Operator Console');
    expect((config.directories as { output?: string }).output).toBe('release');
  });

  it('builds AppImage + deb on Linux, dmg on macOS and an NSIS installer on Windows', () => {
    expect(targetsOf('linux').sort()).toEqual(['AppImage', 'deb']);
    expect(targetsOf('mac')).toEqual(['dmg']);
    expect(targetsOf('win')).toEqual(['nsis']);
  });

  it('packages the bundles and package.json, including the Electron entry point', () => {
    const files = config.files as string[];
    expect(files).toContain('dist/**');
    expect(files).toContain('package.json');
    expect(pkg.main).toBe('dist/electron/main.cjs');
    // No exclusion pattern may drop the entry point.
    const exclusions = files.filter((f) => f.startsWith('!'));
    for (const ex of exclusions) {
      const re = new RegExp(
        `^${ex
          .slice(1)
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\/?/g, '.*')
          .replace(/(?<!\.)\*/g, '[^/]*')}$`,
      );
      expect(re.test(pkg.main), ex).toBe(false);
    }
  });

  it('ships as dependencies only the native modules the main bundle loads at run time', () => {
    // electron-builder copies every production dependency into the installer; the bundles already contain
    // the rest, so anything else belongs in devDependencies (npm install -D).
    const natives = MAIN_EXTERNALS.filter((m) => m !== 'electron');
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...natives].sort());
  });

  it('uses asar, with the native modules unpacked and rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    const unpack = config.asarUnpack as string[];
    expect(unpack.some((p) => p.includes('node_modules/better-sqlite3'))).toBe(true);
    expect(unpack.some((p) => p.includes('node_modules/@napi-rs/keyring'))).toBe(true);
    expect(config.npmRebuild).toBe(true);
  });

  it('flips the Electron fuses that close Node back doors', () => {
    expect(config.electronFuses).toEqual(
      expect.objectContaining({
        runAsNode: false,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableCookieEncryption: true,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
        grantFileProtocolExtraPrivileges: false,
      }),
    );
  });
});
