/**
 * Wallet automation settings of the embedded simulator (`GET`/`PUT <validator>/v0/sim/automation`, validator operator
 * only). Not part of the Splice API: a real validator configures its automation in its deployment, so the view offers
 * this only for the demo profile. The simulator answers with its whole configuration and a PUT replaces it whole, so a
 * change is applied to the current configuration and sent back complete; the simulator validates it (nothing changes
 * when it refuses).
 */
import { z } from 'zod';
import type { AutomationSetting } from '../../ipc/contract.js';
import { ConsoleError } from '../../ipc/errors.js';
import type { WalletService } from './wallet-service.js';

export const SIM_AUTOMATION_PATH = '/v0/sim/automation';

type Json = boolean | number | string | null | Json[] | { [k: string]: Json };
const ConfigSchema = z.record(
  z.string(),
  z.custom<Json>(() => true),
);
type Config = z.infer<typeof ConfigSchema>;

export class WalletAutomation {
  constructor(
    private readonly wallet: WalletService,
    /** Whether the active profile is the demo simulator (the only validator with this endpoint). */
    private readonly isDemo: () => boolean,
  ) {}

  async get(): Promise<{ settings: AutomationSetting[] }> {
    this.demoOnly();
    return { settings: flatten(await this.read()) };
  }

  async set(changes: Array<{ key: string; value: boolean | number | string }>): Promise<{ settings: AutomationSetting[] }> {
    this.demoOnly();
    const config = structuredClone(await this.read());
    const known = new Map(flatten(config).map((s) => [s.key, s] as const));
    changes.forEach((c, i) => {
      const current = known.get(c.key);
      if (!current)
        throw new ConsoleError('BAD_REQUEST', `Unknown automation setting ${c.key}`, undefined, [
          { path: `settings.${i}.key`, message: 'not a setting of the simulator' },
        ]);
      setPath(config, c.key, parseValue(current.kind, c.value, i));
    });
    return { settings: flatten(await this.wallet.clients.adminClient().put(SIM_AUTOMATION_PATH, config, ConfigSchema)) };
  }

  private read(): Promise<Config> {
    return this.wallet.clients.adminClient().get(SIM_AUTOMATION_PATH, ConfigSchema);
  }

  private demoOnly(): void {
    if (!this.isDemo())
      throw new ConsoleError(
        'FORBIDDEN',
        'Automation settings are a feature of the embedded simulator; a real validator configures its automation in its deployment',
      );
  }
}

/** Scalars as they are; objects of scalars one level down as dotted keys; anything else (maps by party) as JSON text. */
export function flatten(config: Config): AutomationSetting[] {
  const out: AutomationSetting[] = [];
  for (const [key, value] of Object.entries(config)) {
    const scalar = scalarSetting(key, value);
    if (scalar) {
      out.push(scalar);
      continue;
    }
    const inner = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
    const scalars = inner.map(([k, v]) => scalarSetting(`${key}.${k}`, v));
    if (inner.length > 0 && scalars.every((s) => s !== null)) out.push(...scalars);
    else out.push({ key, kind: 'json', value: JSON.stringify(value, null, 2) });
  }
  return out;
}

function scalarSetting(key: string, value: Json): AutomationSetting | null {
  if (typeof value === 'boolean') return { key, kind: 'boolean', value };
  if (typeof value === 'number') return { key, kind: 'number', value };
  if (typeof value === 'string') return { key, kind: 'text', value };
  return null;
}

function parseValue(kind: AutomationSetting['kind'], value: boolean | number | string, i: number): Json {
  const bad = (message: string) => new ConsoleError('BAD_REQUEST', message, undefined, [{ path: `settings.${i}.value`, message }]);
  if (kind === 'boolean') {
    if (typeof value !== 'boolean') throw bad('expected true or false');
    return value;
  }
  if (kind === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('expected a number');
    return value;
  }
  if (typeof value !== 'string') throw bad('expected text');
  if (kind === 'text') return value;
  try {
    return JSON.parse(value) as Json;
  } catch (err) {
    throw bad(`not valid JSON: ${(err as Error).message}`);
  }
}

function setPath(config: Config, key: string, value: Json): void {
  const [head, sub] = key.split('.', 2) as [string, string | undefined];
  if (sub === undefined) {
    config[head] = value;
    return;
  }
  const obj = config[head];
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    throw new ConsoleError('BAD_REQUEST', `Automation setting ${head} is not an object`);
  obj[sub] = value;
}
