/**
 * What the Updates filter builder offers: the participant's parties (required to filter by party) and its
 * templates and interfaces (optional suggestions: the filter works without them), read per profile.
 */
import type { ConsoleClient } from '../../../../src/ipc/client.js';
import type { PartyOption, TemplateCatalog } from '../../../../src/ipc/contract.js';
import { asIpcError } from '../errors.js';

export class FilterOptions {
  parties = $state<PartyOption[]>([]);
  catalog = $state<TemplateCatalog | null>(null);
  partiesError = $state<string | null>(null);

  /** Reads both; the returned function drops answers still in flight (the profile changed). */
  load(client: ConsoleClient): () => void {
    let active = true;
    client.call('contracts.templates', {}).then(
      (c) => {
        if (active) this.catalog = c;
      },
      () => {
        if (active) this.catalog = null;
      },
    );
    client.call('updates.parties', {}).then(
      (r) => {
        if (!active) return;
        this.parties = r.parties;
        this.partiesError = null;
      },
      (err: unknown) => {
        if (active) this.partiesError = asIpcError(err).message;
      },
    );
    return () => {
      active = false;
    };
  }
}
