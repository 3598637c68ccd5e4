/** The simulator's off-thread DAR reader: real DARs decode in the worker, reader errors keep their code, a decode that
 * runs out of time is stopped and the next one gets a fresh worker. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DamlLfError, readDar } from '../../src/daml-lf/index.js';
import { DarDecoder, DarDecoderError } from '../../src/dar-reader/dar-decoder.js';
import { referenceDir } from '../integration/simulator/helpers.js';

const dar = (f: string): Uint8Array => new Uint8Array(readFileSync(path.join(referenceDir, 'dars', f)));
const decoders: DarDecoder[] = [];
const make = (opts?: ConstructorParameters<typeof DarDecoder>[0]): DarDecoder => {
  const d = new DarDecoder(opts);
  decoders.push(d);
  return d;
};
afterAll(async () => {
  for (const d of decoders) await d.close();
});

describe('DarDecoder (worker thread)', () => {
  it('decodes a real DAR exactly as the reader does on the calling thread', async () => {
    const bytes = dar('splice-api-token-holding-v1-1.0.0.dar');
    const got = await make().decode(bytes);
    const want = readDar(bytes);
    expect(got.packages.map((p) => p.packageId)).toEqual(want.packages.map((p) => p.packageId));
    expect(got.main).toEqual(want.main);
    expect(
      got.archives.map((a) =>
        Buffer.from(a.bytes).equals(Buffer.from(want.archives.find((w) => w.packageId === a.packageId)?.bytes ?? [])),
      ),
    ).not.toContain(false);
  }, 60_000);

  it('passes the reader error through with its code', async () => {
    const d = make();
    const e = await d.decode(new TextEncoder().encode('not a DAR')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DamlLfError);
    expect((e as DamlLfError).code).toBe('NOT_A_ZIP');
  }, 60_000);

  it('stops a decode that runs out of time (the worker is terminated, the caller gets a timeout error)', async () => {
    const d = make({ timeoutMs: 1 });
    const e = await d.decode(dar('splice-amulet-0.1.21.dar')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DarDecoderError);
    expect((e as DarDecoderError).kind).toBe('timeout');
    // the same decoder carries on with a new worker (which also gets 1 ms: a small DAR may or may not make it)
    const next = await d.decode(new TextEncoder().encode('x')).catch((x: unknown) => x);
    expect(next instanceof DamlLfError || (next instanceof DarDecoderError && next.kind === 'timeout')).toBe(true);
  }, 60_000);
});
