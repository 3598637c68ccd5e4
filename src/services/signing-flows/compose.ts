/** The composer's form (create / exercise with JSON arguments) as a JSON Ledger API command. */
import type { v3_5 } from '@canton-network/core-ledger-client-types';
import { ConsoleError } from '../../ipc/errors.js';
import type { ComposeCommand } from '../../ipc/channels/signing.js';

/** Turns the composer's form into a JSON API command; bad JSON is a BAD_REQUEST naming the field. */
export function buildCommand(c: ComposeCommand): v3_5.components['schemas']['Command'] {
  const args = parseArgs(c.argumentsJson, c.kind === 'create' ? 'createArguments' : 'choiceArgument');
  const templateId = c.templateId.startsWith('#') || /^[0-9a-f]{64}:/.test(c.templateId) ? c.templateId : `#${c.templateId}`;
  if (c.kind === 'create') {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ConsoleError('BAD_REQUEST', 'Create arguments must be a JSON object', undefined, [
        { path: 'argumentsJson', message: 'Create arguments must be a JSON object (a record)' },
      ]);
    }
    return { CreateCommand: { templateId, createArguments: args } };
  }
  return { ExerciseCommand: { templateId, contractId: c.contractId, choice: c.choice, choiceArgument: args } };
}

function parseArgs(text: string, field: string): unknown {
  const t = text.trim();
  if (t === '') return {};
  try {
    return JSON.parse(t) as unknown;
  } catch (err) {
    throw new ConsoleError('BAD_REQUEST', `The ${field} are not valid JSON`, undefined, [
      { path: 'argumentsJson', message: `Not valid JSON: ${(err as Error).message}` },
    ]);
  }
}
