/** Messages between `dar-decoder.ts` and its worker thread (`dar-worker.ts`). */
import type { Dar, DamlLfErrorCode } from '../../daml-lf/index.js';

export interface DarWorkerRequest {
  id: number;
  /** The DAR's bytes (transferred to the worker). */
  bytes: ArrayBuffer;
}

export type DarWorkerResponse =
  | { id: number; ok: true; dar: Dar }
  | { id: number; ok: false; damlLf: { code: DamlLfErrorCode; message: string; details: Record<string, string | number> } }
  | { id: number; ok: false; internal: string };
