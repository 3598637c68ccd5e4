import os from 'node:os';
import path from 'node:path';

/** Per-user data directory, as Electron's userData would be, overridable for tests and demos. */
export function defaultDataDir(): string {
  if (process.env.CONSOLE_DATA_DIR) return path.resolve(process.env.CONSOLE_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'canton-operator-console');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? home, 'canton-operator-console');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'canton-operator-console');
}
