/** The command the Commands view's form describes, in the shape `commands.submit` takes (pure). */
import type { ChoiceDef, CommandSpec, JsonValue, TemplateDef } from '../../../../src/ipc/contract.js';
import { normalizeValue } from '../forms/model.js';

export interface CommandInput {
  kind: CommandSpec['kind'];
  template: TemplateDef | null;
  choice: ChoiceDef | null;
  contractId: string;
  createArg: JsonValue | undefined;
  choiceArg: JsonValue | undefined;
  keyArg: JsonValue | undefined;
}

/** null while the form misses the template, the choice, or (exercise by key) the template's key. */
export function commandSpec({ kind, template, choice, contractId, createArg, choiceArg, keyArg }: CommandInput): CommandSpec | null {
  if (!template) return null;
  if (kind === 'create') return { kind, templateId: template.id, createArguments: normalizeValue(template.argument, createArg ?? null) };
  if (!choice) return null;
  const exercised = { choice: choice.name, choiceArgument: normalizeValue(choice.argument, choiceArg ?? null) };
  switch (kind) {
    case 'exercise':
      // An interface choice is exercised through its interface.
      return { kind, templateId: choice.interfaceId ?? template.id, contractId: contractId.trim(), ...exercised };
    case 'exerciseByKey':
      return template.key
        ? { kind, templateId: template.id, contractKey: normalizeValue(template.key, keyArg ?? null), ...exercised }
        : null;
    case 'createAndExercise':
      return { kind, templateId: template.id, createArguments: normalizeValue(template.argument, createArg ?? null), ...exercised };
  }
}
