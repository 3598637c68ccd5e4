/**
 * The validator app's commands name templates `#splice-amulet:…` (and the other built-in wallet packages); they are
 * pinned to the built-in package ids before submission, so an uploaded package of the same name — the real Splice
 * DARs — never takes over the behaviour the app relies on (see "Built-in and uploaded packages" in the README).
 */
import type { PackageRegistry } from '../packages/registry.js';

const KINDS = ['CreateCommand', 'ExerciseCommand', 'ExerciseByKeyCommand', 'CreateAndExerciseCommand'] as const;

export function pinCommands(registry: PackageRegistry, commands: unknown[]): unknown[] {
  return commands.map((c) => {
    if (typeof c !== 'object' || c === null) return c;
    const out: Record<string, unknown> = { ...(c as Record<string, unknown>) };
    for (const k of KINDS) {
      const inner = out[k] as { templateId?: unknown } | undefined;
      if (inner && typeof inner.templateId === 'string') out[k] = { ...inner, templateId: registry.pinBuiltin(inner.templateId) };
    }
    return out;
  });
}
