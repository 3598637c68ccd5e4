/** Types of scripts/cli-bundle.mjs (plain JavaScript, so that scripts/run.cjs needs no build). */
export declare const ROOT: string;
export declare const OUT_DIR: string;
export declare const ENTRIES: Readonly<Record<string, string>>;
export declare const CLI_EXTERNALS: readonly string[];
export interface CliManifest {
  root: string;
  /** Date.now() when the build started. */
  builtAt: number;
  workers: string[];
  /** Every local source file esbuild read, relative to the checkout. */
  inputs: string[];
}
export declare function staleReasonFor(manifest: CliManifest | null, root: string, mtimeOf: (rel: string) => number | null): string | null;
/** Why the bundles of checkout `root` (default: this one) must be rebuilt, or null when they are fresh. */
export declare function staleReason(root?: string): string | null;
/** staleReason() with the stats run in parallel on libuv's threads (what scripts/run.cjs uses). */
export declare function staleReasonAsync(root?: string): Promise<string | null>;
export declare function buildCliBundles(): Promise<void>;
export declare function ensureCliBundles(): Promise<void>;
