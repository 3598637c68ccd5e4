/**
 * The parties of the active participant, shared by every party picker and party display: loaded once per profile
 * (session generation) through `parties.directory`, reloaded on demand (after allocating a party).
 */
import type { PartyDirectoryEntry } from '../../../../src/ipc/contract.js';
import type { IpcError } from '../../../../src/ipc/errors.js';
import { asIpcError } from '../errors.js';
import type { Session } from '../session.svelte.js';

class PartyDirectory {
  entries = $state<PartyDirectoryEntry[]>([]);
  error = $state<IpcError | null>(null);
  loading = $state(false);
  private loadedFor = -1;
  private loadedAt = 0;
  private byId = $derived(new Map(this.entries.map((p) => [p.party, p])));

  /**
   * Loads the directory for the session's current profile unless it is loaded (or loading) already; a directory older
   * than `maxAgeMs` is read again (parties allocated elsewhere appear when a picker is next used).
   */
  ensure(session: Session, maxAgeMs = 15_000): void {
    if (this.loading) return;
    if (this.loadedFor === session.generation && Date.now() - this.loadedAt < maxAgeMs) return;
    this.reload(session);
  }

  reload(session: Session): void {
    const generation = session.generation;
    this.loading = true;
    session.client.call('parties.directory', {}).then(
      (r) => {
        this.loading = false;
        if (session.generation !== generation) return;
        this.entries = r.parties;
        this.error = null;
        this.loadedFor = generation;
        this.loadedAt = Date.now();
      },
      (err: unknown) => {
        this.loading = false;
        this.error = asIpcError(err);
        this.loadedFor = generation;
        this.loadedAt = Date.now();
      },
    );
  }

  get(party: string): PartyDirectoryEntry | undefined {
    return this.byId.get(party);
  }
}

export const partyDirectory = new PartyDirectory();
