/**
 * Interface views of contracts of uploaded packages, computed by the Daml-LF engine (the `view` of the template's
 * interface instance applied to the contract argument), for `includeInterfaceView` in event formats.
 */
import type { CreatedNode } from '../model.js';
import type { PackageRegistry } from '../packages/registry.js';
import { engineFor } from './lf-engine-cache.js';
import { fromJson, toJson, type Json } from './lf/convert.js';
import { EngineError, FailureStatusError } from './lf/errors.js';

export type ViewResult = { ok: true; value: Json } | { ok: false; code: number; message: string };

const qnOf = (id: string): { packageId: string; module: string; name: string } => {
  const [packageId = '', module = '', name = ''] = id.split(':');
  return { packageId, module, name };
};

/** The view of interface `interfaceId` (package-id form) of a contract created by an uploaded package. */
export function lfInterfaceView(registry: PackageRegistry, node: CreatedNode, interfaceId: string): ViewResult {
  const { engine } = engineFor(registry);
  const tpl = qnOf(`${node.packageId}:${node.qualifiedName}`);
  try {
    const t = engine.defs.template(tpl);
    const inst = t.instance(qnOf(interfaceId));
    if (!inst) return { ok: false, code: 5, message: `Template ${t.id} does not implement ${interfaceId}` };
    const arg = fromJson(engine.defs, { kind: 'con', ...tpl, args: [] }, node.createArgument);
    const m = engine.machine();
    return { ok: true, value: toJson(engine.run(m, () => m.call(inst.view, [arg]))) };
  } catch (e) {
    // a view that fails is reported in the view status (gRPC INVALID_ARGUMENT), as Canton does
    if (e instanceof FailureStatusError || e instanceof EngineError) return { ok: false, code: 3, message: e.message };
    throw e;
  }
}
