/**
 * State shared by the shell and every view: the typed client, app info, the connection profiles and
 * a `generation` counter that views read in their effects — it changes whenever the active profile
 * (or its settings) changes, so views refetch and resubscribe.
 */
import { createContext } from 'svelte';
import type { ConsoleClient } from '../../../src/ipc/client.js';
import type { AppInfo, Profile } from '../../../src/ipc/contract.js';
import type { IpcError } from '../../../src/ipc/errors.js';
import { asIpcError } from './errors.js';

export class Session {
  info = $state<AppInfo | null>(null);
  profiles = $state<Profile[]>([]);
  activeId = $state<string | null>(null);
  generation = $state(0);
  /** Failure of loading or switching profiles, shown above the current view. */
  profileError = $state<IpcError | null>(null);
  switching = $state(false);

  readonly client: ConsoleClient;
  readonly transportKind: 'electron' | 'browser-host';

  constructor(client: ConsoleClient, transportKind: 'electron' | 'browser-host') {
    this.client = client;
    this.transportKind = transportKind;
  }

  activeProfile = $derived(this.profiles.find((p) => p.id === this.activeId) ?? null);

  async load(): Promise<void> {
    try {
      this.info = await this.client.call('app.info', {});
    } catch {
      // app.info is cosmetic (name/version/demo badge); the profiles below matter.
    }
    await this.refreshProfiles();
  }

  /** Reloads the list; bumps `generation` when the active profile changed underneath us. */
  async refreshProfiles(): Promise<void> {
    try {
      const { profiles, activeId } = await this.client.call('profiles.list', {});
      const changed = this.activeId !== null && this.activeId !== activeId;
      this.profiles = profiles;
      this.activeId = activeId;
      this.profileError = null;
      if (changed) this.generation++;
    } catch (err) {
      this.profileError = asIpcError(err);
    }
  }

  async select(id: string): Promise<boolean> {
    if (id === this.activeId) return true;
    this.switching = true;
    try {
      await this.client.call('profiles.select', { id });
      this.activeId = id;
      this.profileError = null;
      this.generation++;
      await this.refreshProfiles();
      return true;
    } catch (err) {
      this.profileError = asIpcError(err);
      return false;
    } finally {
      this.switching = false;
    }
  }

  /** Views refetch: used after the active profile's settings were edited. */
  invalidate(): void {
    this.generation++;
  }
}

export const [getSession, setSession] = createContext<Session>();
