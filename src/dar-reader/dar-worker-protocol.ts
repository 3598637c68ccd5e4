/** Messages between `dar-decoder.ts` and its worker thread (`dar-worker.ts`). */
import type { Dar, DamlLfErrorCode, ZipLimits } from '../daml-lf/index.js';

export interface DarWorkerRequest {
  id: number;
  /** The DAR's bytes (transferred to the worker). */
  bytes: ArrayBuffer;
  /** Ceilings on the uncompressed entries (the reader's defaults when absent). */
  limits?: ZipLimits;
}

export type DarWorkerResponse =
  | { id: number; ok: true; dar: Dar }
  | { id: number; ok: false; damlLf: { code: DamlLfErrorCode; message: string; details: Record<string, string | number> } }
  | { id: number; ok: false; internal: string };
