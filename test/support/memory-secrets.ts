import type { SecretStore } from '../../src/services/secret-store.js';

/** A SecretStore in memory, for tests about something other than where secrets are kept. */
export class MemorySecrets implements SecretStore {
  readonly m = new Map<string, string>();
  get(account: string): Promise<string | null> {
    return Promise.resolve(this.m.get(account) ?? null);
  }
  set(account: string, secret: string): Promise<void> {
    this.m.set(account, secret);
    return Promise.resolve();
  }
  delete(account: string): Promise<boolean> {
    return Promise.resolve(this.m.delete(account));
  }
}
