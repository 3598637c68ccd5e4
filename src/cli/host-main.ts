/**
 * The browser host on its own (`node scripts/run.cjs host …`; the tests start the console this way): what
 * `npm start` runs when Electron's binary is absent, without the launcher's build step.
 */
import { runHost } from './host.js';

runHost(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`console host failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
