/**
 * Visibility over the packed form (packed.ts) for one request: the request's event format compiled against party ids,
 * deciding from a row's header integers who sees each event.
 */
import type { Match, ResolvedEventFormat } from './filters.js';
import { matchEvent } from './filters.js';
import type { PartyIds } from './packed.js';

/** Who sees an event: its witnessParties JSON, their ids, and (generic filters) blob/interface views. */
export interface Seen {
  witnesses: string;
  pids: number[];
  match: Match | undefined;
}

/**
 * An event format compiled against party ids for one request. Party-wildcard filters (the common
 * case: `filtersByParty` with empty/wildcard filters, or a wildcard `filtersForAnyParty`) match by
 * id alone and reuse the witnessParties JSON of each party set; other filters go through matchEvent.
 */
export class PackedFormat {
  private readonly mode: 'parties' | 'all' | 'generic';
  /** ids of the requested parties (byParty); they also decide commandId visibility */
  private readonly requested = new Set<number>();
  /** requested parties without an id yet (allocated later, while a stream tails the ledger) */
  private readonly unresolved = new Set<string>();
  private readonly witnessJson = new Map<string, string>();
  /** header integers of the row being planned (reused) */
  readonly ints: number[] = [];

  constructor(
    readonly fmt: ResolvedEventFormat,
    private readonly parties: PartyIds,
  ) {
    const plain = (pf: {
      wildcard: boolean;
      wildcardBlob: boolean;
      templates: Map<string, unknown>;
      interfaces: Map<string, unknown>;
    }): boolean => pf.wildcard && !pf.wildcardBlob && pf.templates.size === 0 && pf.interfaces.size === 0;
    if (fmt.any) this.mode = fmt.byParty.size === 0 && plain(fmt.any) ? 'all' : 'generic';
    else this.mode = [...fmt.byParty.values()].every(plain) ? 'parties' : 'generic';
    if (!fmt.any)
      for (const p of fmt.byParty.keys()) {
        const pid = parties.pidOf(p);
        if (pid === undefined) this.unresolved.add(p);
        else this.requested.add(pid);
      }
  }

  /** Whether `pid` is a requested party (resolving names that had no id when the request started). */
  private isRequested(pid: number): boolean {
    if (this.requested.has(pid)) return true;
    if (this.unresolved.size === 0) return false;
    const party = this.parties.partyOf(pid);
    if (party === undefined || !this.unresolved.delete(party)) return false;
    this.requested.add(pid);
    return true;
  }

  /** Whether the parties at ints[at, at + count) (actAs) let the request see the commandId. */
  showCommandId(at: number, count: number): boolean {
    if (this.fmt.any) return true; // any-party readers see every commandId (filters.ts readersOf)
    for (let k = at; k < at + count; k++) if (this.isRequested(this.ints[k] as number)) return true;
    return false;
  }

  /**
   * Matches the parties at ints[at, at + count) (a node's stakeholders or witnesses); `node` is the
   * index of the node's header integers (template key and interfaces are read for generic filters only).
   */
  see(packed: string, base: number, node: number, at: number, count: number): Seen | undefined {
    const ints = this.ints;
    if (this.mode === 'generic') {
      const candidates: string[] = [];
      for (let k = at; k < at + count; k++) candidates.push(this.partyOf(ints[k] as number));
      const t = packed.slice(base + (ints[node + 5] as number), base + (ints[node + 6] as number));
      const interfaces = JSON.parse(packed.slice(base + (ints[node + 7] as number), base + (ints[node + 8] as number))) as string[];
      const m = matchEvent(this.fmt, candidates, t, interfaces);
      if (!m) return undefined;
      return { witnesses: JSON.stringify(m.parties), pids: m.parties.map((p) => this.parties.pidOf(p) as number), match: m };
    }
    const pids: number[] = [];
    for (let k = at; k < at + count; k++) {
      const pid = ints[k] as number;
      if (this.mode === 'all' || this.isRequested(pid)) pids.push(pid);
    }
    if (pids.length === 0) return undefined;
    const key = pids.length === 1 ? String(pids[0]) : pids.join(',');
    let witnesses = this.witnessJson.get(key);
    if (witnesses === undefined) {
      witnesses = JSON.stringify(pids.map((p) => this.partyOf(p)).sort());
      this.witnessJson.set(key, witnesses);
    }
    return { witnesses, pids, match: undefined };
  }

  private partyOf(pid: number): string {
    const p = this.parties.partyOf(pid);
    if (p === undefined) throw new Error(`stored transaction names unknown party id ${pid}`);
    return p;
  }
}
