/**
 * Command interpretation entry point: commands on uploaded Daml-LF packages run on the Daml-LF engine
 * (lf-submit.ts), commands on the built-in packages on the TypeScript interpreter (interpreter.ts).
 */
import { CantonError } from '../errors.js';
import { interpret, type InterpretedTransaction, type InterpreterEnv, type SimCommand } from './interpreter.js';
import { interpretLf, isLfCommand } from './lf-submit.js';

export function interpretCommands(cmds: SimCommand[], actAs: string[], readAs: string[], env: InterpreterEnv): InterpretedTransaction {
  const lf = cmds.map((c) => isLfCommand(env, c));
  if (!lf.some(Boolean)) return interpret(cmds, actAs, readAs, env);
  if (!lf.every(Boolean))
    throw new CantonError(
      'INVALID_ARGUMENT',
      'A submission cannot mix commands on uploaded packages with commands on the simulator’s built-in packages',
      {
        context: { field: 'commands' },
      },
    );
  return interpretLf(cmds, actAs, readAs, env);
}
