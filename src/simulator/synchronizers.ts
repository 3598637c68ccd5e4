/** The two synchronizers the simulated participant is connected to. */
import { fingerprint } from './ids.js';

export interface SynchronizerInfo {
  alias: string;
  id: string;
}

export function synchronizersFor(seed: string): [SynchronizerInfo, SynchronizerInfo] {
  return [
    { alias: 'global', id: `global-domain::${fingerprint(`sync:global:${seed}`)}` },
    { alias: 'private', id: `private-sync::${fingerprint(`sync:private:${seed}`)}` },
  ];
}
