/**
 * The participant's package vetting state per synchronizer (persisted in `store/packages.ts`), the base of
 * `PackageRegistry`. Without an attached store every known package counts as vetted everywhere.
 */
import { CantonError } from '../errors.js';
import type { PackageStore, VettingBounds } from '../store/packages.js';

const withinBounds = (b: VettingBounds, at: string | undefined): boolean => {
  if (at === undefined) return true;
  const t = Date.parse(at);
  if (b.validFrom !== null && t < Date.parse(b.validFrom)) return false;
  if (b.validUntil !== null && t >= Date.parse(b.validUntil)) return false;
  return true;
};

export abstract class VettingState {
  private store: PackageStore | undefined;
  /** synchronizer id → vetted package id → bounds. Undefined until a store is attached (then: everything vetted). */
  private vettingState: Map<string, Map<string, VettingBounds>> | undefined;
  private serials = new Map<string, number>();

  abstract get packages(): { id: string }[];

  /** Loads the vetting state; built-in packages seen for the first time are vetted on every synchronizer. */
  protected attachVetting(store: PackageStore, synchronizerIds: string[], builtinIds: string[]): void {
    this.store = store;
    store.transaction(() => {
      const fresh = store.markBuiltinsSeen(builtinIds);
      if (fresh.length === 0) return;
      const state = store.vetting();
      const serials = store.serials();
      for (const s of synchronizerIds) {
        const m = state.get(s) ?? new Map<string, VettingBounds>();
        for (const id of fresh) m.set(id, { validFrom: null, validUntil: null });
        store.writeVetting(s, m, (serials.get(s) ?? 0) + 1);
      }
    });
    this.vettingState = store.vetting();
    this.serials = store.serials();
  }

  get packageStore(): PackageStore | undefined {
    return this.store;
  }

  /** Vetted packages (id → bounds) on a synchronizer. */
  vetted(synchronizerId: string): Map<string, VettingBounds> {
    if (!this.vettingState) return new Map(this.packages.map((p) => [p.id, { validFrom: null, validUntil: null }]));
    return new Map(this.vettingState.get(synchronizerId) ?? []);
  }

  serial(synchronizerId: string): number {
    if (!this.vettingState) return 1;
    return this.serials.get(synchronizerId) ?? 0;
  }

  isVetted(packageId: string, synchronizerId: string, at?: string): boolean {
    // looked up in place: `vetted` copies the map (checked for every command's packages)
    const b = this.vettingState ? this.vettingState.get(synchronizerId)?.get(packageId) : this.vetted(synchronizerId).get(packageId);
    return b !== undefined && withinBounds(b, at);
  }

  /** Vetted (now, without bounds checks) on some synchronizer; true for everything without a store. */
  isVettedAnywhere(packageId: string): boolean {
    if (!this.vettingState) return true;
    for (const m of this.vettingState.values()) if (m.has(packageId)) return true;
    return false;
  }

  /** Persists a new vetting state for one synchronizer (caller runs inside a store transaction). */
  writeVetting(synchronizerId: string, state: Map<string, VettingBounds>): number {
    if (!this.store || !this.vettingState) throw new Error('package store not attached');
    const serial = this.serial(synchronizerId) + 1;
    this.store.writeVetting(synchronizerId, state, serial);
    return serial;
  }

  /** Re-reads the vetting state after a committed change. */
  reloadVetting(): void {
    if (!this.store) return;
    this.vettingState = this.store.vetting();
    this.serials = this.store.serials();
  }

  /** NO_SYNCHRONIZER_FOR_SUBMISSION when one of `packageIds` is not vetted on the synchronizer at `at`. */
  protected checkVettedWith(
    packageIds: Iterable<string>,
    synchronizerId: string,
    at: string,
    describe: (id: string) => { def: { name: string; version: string } } | undefined,
  ): void {
    const missing = [...new Set(packageIds)].filter((id) => !this.isVetted(id, synchronizerId, at)).sort();
    if (missing.length === 0) return;
    const names = missing.map((id) => {
      const p = describe(id);
      return p ? `${id} (${p.def.name} ${p.def.version})` : id;
    });
    throw new CantonError(
      'NO_SYNCHRONIZER_FOR_SUBMISSION',
      `No valid synchronizer for submission found. Reasons: ${synchronizerId}: packages not vetted by participant: ${names.join(', ')}`,
      { context: { synchronizerId, unvettedPackages: missing.join(',') } },
    );
  }
}
