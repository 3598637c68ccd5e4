/**
 * Wallet automation settings of the embedded simulator (`GET`/`PUT <validator>/v0/sim/automation`). Not part of the
 * Splice API: a real validator configures its automation in its deployment, so the view offers this only for the
 * demo profile. The simulator reports a flat JSON object of settings; the console shows and edits its scalar fields.
 */
import { z } from 'zod';
import { ConsoleError } from '../../ipc/errors.js';
import type { WalletService } from './wallet-service.js';

export const SIM_AUTOMATION_PATH = '/v0/sim/automation';

const Scalar = z.union([z.boolean(), z.number(), z.string()]);
const AutomationResponseSchema = z.record(z.string(), z.unknown());

export interface AutomationSetting {
  key: string;
  value: boolean | number | string;
}

export class WalletAutomation {
  constructor(
    private readonly wallet: WalletService,
    /** Whether the active profile is the demo simulator (the only validator with this endpoint). */
    private readonly isDemo: () => boolean,
  ) {}

  async get(): Promise<{ settings: AutomationSetting[] }> {
    this.demoOnly();
    return { settings: flatten(await this.wallet.adminClient().get(SIM_AUTOMATION_PATH, AutomationResponseSchema)) };
  }

  async set(settings: AutomationSetting[]): Promise<{ settings: AutomationSetting[] }> {
    this.demoOnly();
    const body = Object.fromEntries(settings.map((s) => [s.key, s.value]));
    return { settings: flatten(await this.wallet.adminClient().put(SIM_AUTOMATION_PATH, body, AutomationResponseSchema)) };
  }

  private demoOnly(): void {
    if (!this.isDemo()) throw new ConsoleError('FORBIDDEN', 'Automation settings are a feature of the embedded simulator; a real validator configures its automation in its deployment');
  }
}

function flatten(o: Record<string, unknown>): AutomationSetting[] {
  return Object.entries(o)
    .flatMap(([key, value]) => {
      const v = Scalar.safeParse(value);
      return v.success ? [{ key, value: v.data }] : [];
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
