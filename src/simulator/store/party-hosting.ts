/**
 * On which synchronizers this participant hosts each party, with its permission there (the simulator's view of
 * Canton's PartyToParticipant topology per synchronizer). A party is hosted only where it was allocated or
 * onboarded until it is added to another synchronizer. Own table, created on first use; data dirs written before
 * it existed are filled once from each party's allocating topology transaction.
 */
import type { ParticipantPermission } from '../model.js';
import type { Db } from './open.js';

export interface HostingRow {
  synchronizerId: string;
  permission: ParticipantPermission;
}

export class PartyHostingStore {
  private readonly s;

  constructor(db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS party_hosting (
      party           TEXT NOT NULL,
      synchronizer_id TEXT NOT NULL,
      permission      TEXT NOT NULL,
      offset          INTEGER NOT NULL,
      PRIMARY KEY (party, synchronizer_id)
    ) WITHOUT ROWID`);
    // Parties allocated before this table existed: the synchronizer and permission of their own topology transaction.
    db.exec(`INSERT OR IGNORE INTO party_hosting (party, synchronizer_id, permission, offset)
      SELECT p.party, u.synchronizer_id,
        COALESCE(json_extract(pl.payload, '$.events[0].permission'), 'PARTICIPANT_PERMISSION_SUBMISSION'), p.offset
      FROM parties p JOIN updates u ON u.offset = p.offset LEFT JOIN update_payloads pl ON pl.offset = p.offset
      WHERE NOT EXISTS (SELECT 1 FROM party_hosting h WHERE h.party = p.party)`);
    this.s = {
      of: db.prepare('SELECT synchronizer_id, permission FROM party_hosting WHERE party = ? ORDER BY offset'),
      add: db.prepare('INSERT INTO party_hosting (party, synchronizer_id, permission, offset) VALUES (?, ?, ?, ?)'),
    };
  }

  /** The synchronizers hosting `party` here, in the order it was added to them (empty for an unknown party). */
  of(party: string): HostingRow[] {
    return (this.s.of.all(party) as { synchronizer_id: string; permission: ParticipantPermission }[]).map((r) => ({
      synchronizerId: r.synchronizer_id,
      permission: r.permission,
    }));
  }

  add(party: string, synchronizerId: string, permission: ParticipantPermission, offset: number): void {
    this.s.add.run(party, synchronizerId, permission, offset);
  }
}

const stores = new WeakMap<Db, PartyHostingStore>();
/** The hosting store of a simulator database (one per open database). */
export function partyHostingStore(db: Db): PartyHostingStore {
  let s = stores.get(db);
  if (!s) stores.set(db, (s = new PartyHostingStore(db)));
  return s;
}
