/**
 * Reads DARs off the event loop: one worker thread (started on first use, unref'd so it never keeps the process
 * alive) decodes one DAR at a time with `src/daml-lf`, so a large or hostile DAR never stalls the process's other work
 * (the simulator's requests, the console's IPC calls; both use the process-wide `darDecoder()`). A decode that runs
 * longer than `timeoutMs`, or a worker that dies (e.g. out of its memory limit), ends that request with an error and the
 * worker is replaced for the next one.
 *
 * Where the worker's code lives: beside the Electron bundle (`dist/electron/dar-worker.cjs`, unpacked from the asar
 * archive) or, when running from the sources (tsx, vitest), `dar-worker.ts` loaded through tsx's ESM loader.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DamlLfError } from '../daml-lf/index.js';
import type { Dar, ZipLimits } from '../daml-lf/index.js';
import type { DarWorkerRequest, DarWorkerResponse } from './dar-worker-protocol.js';

export interface DarDecoderOptions {
  /** Longest decode before the worker is stopped (default 120 s). */
  timeoutMs?: number;
  /** The worker's V8 old-generation limit in MiB (default 2048). */
  maxHeapMb?: number;
}

/** Thrown when the worker fails for another reason than the DAR's content (timeout, crash, missing worker code). */
export class DarDecoderError extends Error {
  override readonly name = 'DarDecoderError';
  constructor(
    readonly kind: 'timeout' | 'crashed' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The file of tsx's ESM register API (`tsx/esm/api`, import condition), from its package.json exports. */
function tsxEsmApi(): string {
  const pkgJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exp = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> }).exports;
  const rel = exp?.['./esm/api']?.import?.default;
  if (!rel) throw new DarDecoderError('unavailable', 'tsx does not export tsx/esm/api');
  return path.join(path.dirname(pkgJson), rel);
}

/** The worker: the bundled `.cjs` beside the Electron bundle, or the `.ts` source registered with tsx's ESM API. */
function startWorker(resourceLimits: { maxOldGenerationSizeMb: number }): Worker {
  const bundled = fileURLToPath(new URL('./dar-worker.cjs', import.meta.url)).replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  if (existsSync(bundled)) return new Worker(bundled, { resourceLimits });
  const source = new URL('./dar-worker.ts', import.meta.url);
  if (!existsSync(fileURLToPath(source))) throw new DarDecoderError('unavailable', `The DAR reader's worker code is missing (${bundled})`);
  // running from the sources (tsx, vitest): a worker inherits no loader hooks, so it registers tsx itself first
  const tsxApi = pathToFileURL(tsxEsmApi()).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

interface Pending {
  id: number;
  bytes: Uint8Array;
  limits: ZipLimits | undefined;
  resolve: (dar: Dar) => void;
  reject: (e: Error) => void;
}

export class DarDecoder {
  private worker: Worker | undefined;
  private readonly queue: Pending[] = [];
  private current: (Pending & { timer: NodeJS.Timeout }) | undefined;
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;

  constructor(opts: DarDecoderOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.maxHeapMb = opts.maxHeapMb ?? 2048;
  }

  /** Reads a DAR in the worker; rejects with the reader's `DamlLfError` or a `DarDecoderError`. */
  decode(bytes: Uint8Array, limits?: ZipLimits): Promise<Dar> {
    return new Promise<Dar>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, limits, resolve, reject });
      this.pump();
    });
  }

  /** DARs being read or waiting for the worker (what a caller waiting on "a decode is under way" watches). */
  get pending(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  /** Stops the worker (pending requests fail). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.queue.splice(0)) p.reject(new DarDecoderError('crashed', 'The DAR reader was closed'));
    this.finish()?.reject(new DarDecoderError('crashed', 'The DAR reader was closed'));
    if (w) await w.terminate();
  }

  private start(): Worker {
    const w = startWorker({ maxOldGenerationSizeMb: this.maxHeapMb });
    w.unref();
    w.on('message', (res: DarWorkerResponse) => {
      const p = this.current;
      if (!p || p.id !== res.id) return;
      this.finish();
      if (res.ok) p.resolve(res.dar);
      else if ('damlLf' in res) p.reject(new DamlLfError(res.damlLf.code, res.damlLf.message, res.damlLf.details));
      else p.reject(new DarDecoderError('crashed', `The DAR reader failed: ${res.internal}`));
      this.pump();
    });
    const died = (why: string): void => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.finish()?.reject(new DarDecoderError('crashed', `The DAR reader stopped while reading this DAR (${why})`));
      this.pump();
    };
    w.on('error', (e) => died(e.message));
    w.on('exit', (code) => died(`exit code ${code}`));
    return w;
  }

  /** Clears the request in progress and returns it. */
  private finish(): Pending | undefined {
    const p = this.current;
    if (p) clearTimeout(p.timer);
    this.current = undefined;
    this.worker?.unref(); // idle: never keeps the process alive
    return p;
  }

  private pump(): void {
    if (this.current) return;
    const next = this.queue.shift();
    if (!next) return;
    let w: Worker;
    try {
      w = this.worker ??= this.start();
    } catch (e) {
      next.reject(e instanceof Error ? e : new Error(String(e)));
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      const p = this.finish();
      this.worker = undefined;
      void w.terminate();
      p?.reject(new DarDecoderError('timeout', `Reading the DAR took longer than ${Math.round(this.timeoutMs / 1000)} s`));
      this.pump();
    }, this.timeoutMs);
    timer.unref();
    w.ref(); // busy: a caller awaits the answer
    this.current = { ...next, timer };
    // a copy the worker owns (the request's buffer may be a slice of a pooled one)
    const copy = next.bytes.slice();
    const req: DarWorkerRequest = { id: next.id, bytes: copy.buffer, ...(next.limits ? { limits: next.limits } : {}) };
    w.postMessage(req, [copy.buffer]);
  }
}

let shared: DarDecoder | undefined;
/** The process-wide decoder the simulator's DAR routes and the console's DAR validation use. */
export const darDecoder = (): DarDecoder => (shared ??= new DarDecoder());
