/**
 * The token-standard registry API (`../shared/reference/splice/token-standard/*.yaml`: metadata, transfer-instruction,
 * allocation-instruction, allocation) of the DSO's Amulet, served where the official clients look for it: under the
 * validator's scan proxy, `/api/validator/v0/scan-proxy/registry/...` (LocalNet's `LOCALNET_REGISTRY_API_URL`).
 * Every answer has the spec's shape; errors are `{ "error": "…" }` with 400 (bad request) or 404 (unknown contract or
 * instrument). Requests need a bearer token, as the validator's proxy does. The contexts come from
 * `token-registry.ts`.
 */
import { z } from 'zod';
import type { RequestCtx } from '../router.js';
import type { WalletApp } from './app.js';
import { WalletError } from './app.js';
import type { AddRoute } from './http.js';
import { ok, parsedBody } from './http.js';
import { AMULET_INSTRUMENT_ID } from './token-context.js';
import { AmuletTokenRegistry, RegistryError, SUPPORTED_APIS } from './token-registry.js';

export const REGISTRY_BASE = '/v0/scan-proxy/registry';

const FactoryRequest = z.object({ choiceArguments: z.record(z.string(), z.unknown()), excludeDebugFields: z.boolean().optional() });
const ChoiceContextRequest = z.object({ meta: z.record(z.string(), z.string()).optional(), excludeDebugFields: z.boolean().optional() });

/** RegistryError → the API's error answer (WalletError carries status and message to the `{ error }` shape). */
function registryCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RegistryError) throw new WalletError(e.status, e.message);
    throw e;
  }
}

export function registerRegistryRoutes(add: AddRoute, user: (ctx: RequestCtx) => string, app: WalletApp): void {
  const registry = new AmuletTokenRegistry(app);
  const r = (method: string, path: string, h: (ctx: RequestCtx) => unknown): void =>
    add(method, REGISTRY_BASE + path, async (ctx) => {
      user(ctx); // a token is required, as by the validator's proxy
      app.runAutomation();
      return ok(await registryCall(() => h(ctx)));
    });

  // --- metadata ---
  r('GET', '/metadata/v1/info', () => ({ adminId: registry.admin, supportedApis: SUPPORTED_APIS }));
  r('GET', '/metadata/v1/instruments', (ctx) => {
    const size = ctx.query.get('pageSize');
    if (size !== null && !/^\d{1,9}$/.test(size)) throw new RegistryError(400, `Invalid pageSize '${size}'`);
    // a single instrument: any page token past it is the end
    return { instruments: ctx.query.get('pageToken') === null && size !== '0' ? [registry.instrument()] : [] };
  });
  r('GET', '/metadata/v1/instruments/{instrumentId}', (ctx) => {
    const id = ctx.params.instrumentId ?? '';
    if (id !== AMULET_INSTRUMENT_ID) throw new RegistryError(404, `Instrument '${id}' not found.`);
    return registry.instrument();
  });

  // --- transfer instructions ---
  add('POST', `${REGISTRY_BASE}/transfer-instruction/v1/transfer-factory`, async (ctx) => {
    user(ctx);
    const req = await parsedBody(ctx, FactoryRequest);
    app.runAutomation();
    return ok(registryCall(() => registry.transferFactory(req.choiceArguments, req.excludeDebugFields !== true)));
  });
  for (const [choice, needsLock] of [
    ['accept', true],
    ['reject', false],
    ['withdraw', false],
  ] as const)
    add('POST', `${REGISTRY_BASE}/transfer-instruction/v1/{transferInstructionId}/choice-contexts/${choice}`, async (ctx) => {
      user(ctx);
      const req = await parsedBody(ctx, ChoiceContextRequest);
      app.runAutomation();
      const id = ctx.params.transferInstructionId ?? '';
      return ok(registryCall(() => registry.lockedContext('AmuletTransferInstruction', id, needsLock, req.excludeDebugFields !== true)));
    });

  // --- allocations ---
  add('POST', `${REGISTRY_BASE}/allocation-instruction/v1/allocation-factory`, async (ctx) => {
    user(ctx);
    const req = await parsedBody(ctx, FactoryRequest);
    app.runAutomation();
    return ok(registryCall(() => registry.allocationFactory(req.choiceArguments, req.excludeDebugFields !== true)));
  });
  for (const [choice, needsLock] of [
    ['execute-transfer', true],
    ['withdraw', false],
    ['cancel', false],
  ] as const)
    add('POST', `${REGISTRY_BASE}/allocations/v1/{allocationId}/choice-contexts/${choice}`, async (ctx) => {
      user(ctx);
      const req = await parsedBody(ctx, ChoiceContextRequest);
      app.runAutomation();
      const id = ctx.params.allocationId ?? '';
      return ok(registryCall(() => registry.lockedContext('AmuletAllocation', id, needsLock, req.excludeDebugFields !== true)));
    });
}
