/**
 * The library must run in the renderer: bundle it for the browser with esbuild (any Node built-in import fails the
 * build) and run the bundle in a bare V8 context that has only web-standard globals, reading a DAR it builds itself.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('browser bundle of src/daml-lf', () => {
  it('bundles for platform=browser and reads a DAR in a context without Node globals', async () => {
    const result = await build({
      entryPoints: [path.join(repoRoot, 'src/daml-lf/index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'DamlLf',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(1000);
    console.log(`[daml-lf] browser bundle: ${(code.length / 1024).toFixed(0)} KiB`);

    const context = vm.createContext({ TextEncoder, TextDecoder });
    vm.runInContext(
      `${code}
      var party = { kind: 'prim', prim: 'Party', args: [] };
      var built = DamlLf.buildDar({ name: 'demo', version: '1.0.0', modules: [{ name: 'Main', templates: [
        { name: 'T', fields: [{ name: 'p', type: party }], choices: [{ name: 'Go', argFields: [] }] }] }] });
      var dar = DamlLf.readDar(built.bytes);
      var out = { built: built.mainPackageId, read: dar.main.packageId, template: dar.main.modules[0].templates[0].qualifiedName,
                  hasProcess: typeof process !== 'undefined', hasBuffer: typeof Buffer !== 'undefined' };
      var err; try { DamlLf.readDar(new Uint8Array([1, 2, 3])); } catch (e) { err = e.code; }
      out.error = err;
      globalThis.out = JSON.stringify(out);
    `,
      context,
    );
    const out = JSON.parse(String(context['out'])) as Record<string, unknown>;
    expect(out).toMatchObject({ template: 'Main:T', hasProcess: false, hasBuffer: false, error: 'NOT_A_ZIP' });
    expect(out['read']).toBe(out['built']);
    expect(out['read']).toMatch(/^[0-9a-f]{64}$/);
  });
});
