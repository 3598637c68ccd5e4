/**
 * Packages: the pure pieces — upload staging (chunk order, size, expiry), problem extraction from a Canton
 * refusal, vetting diffs and API changes, archive decoding into the cache entry, and the renderer helpers
 * (search, vetting matrix, staged changes, chunking and base64, phase steps).
 */
import { describe, expect, it } from 'vitest';
import { buildDar, encodeArchive, type PackageDescription, type Type } from '../../src/daml-lf/index.js';
import {
  DAR_CHUNK_BYTES,
  MAX_DAR_BYTES,
  PackageDetailSchema,
  type PackageRow,
  type VettingList,
  type VettingState,
} from '../../src/ipc/contract.js';
import { DarUploads, problemsFromCanton } from '../../src/services/ledger/dar-upload.js';
import { decodeArchiveBytes } from '../../src/services/ledger/package-cache.js';
import { packageDetail } from '../../src/services/ledger/packages.js';
import { diffVetting, toApiChange } from '../../src/services/ledger/vetting.js';
import { filterPackages, syncLabel, vettingStatus } from '../../renderer/src/lib/packages/filter.js';
import {
  boundsError,
  changesFor,
  isoToLocalInput,
  localInputToIso,
  parseParties,
  stageBounds,
  stagedCount,
  toggleStaged,
  vettingMatrix,
} from '../../renderer/src/lib/packages/vetting.js';
import { checkFile, chunkRanges, percent, stepState } from '../../renderer/src/lib/packages/upload.js';
import { must } from '../support/must.js';

const party: Type = { kind: 'prim', prim: 'Party', args: [] };
const desc: PackageDescription = {
  name: 'unit-pkg',
  version: '1.2.0',
  modules: [
    {
      name: 'Main',
      templates: [
        {
          name: 'T',
          fields: [{ name: 'p', type: party }],
          key: party,
          choices: [{ name: 'Go', consuming: false, argFields: [{ name: 'to', type: party }] }],
        },
      ],
      interfaces: [{ name: 'I', viewFields: [{ name: 'who', type: party }] }],
    },
  ],
};

describe('DarUploads', () => {
  it('assembles chunks in order and refuses gaps, overflow and unknown ids', () => {
    const u = new DarUploads();
    const { uploadId, chunkBytes } = u.begin('a.dar', 6);
    expect(chunkBytes).toBe(DAR_CHUNK_BYTES);
    expect(() => u.chunk(uploadId, 3, Buffer.from('abc'))).toThrow(/byte 0/);
    expect(u.chunk(uploadId, 0, Buffer.from('abc'))).toBe(3);
    expect(() => u.complete(uploadId)).toThrow(/3 of 6/);
    expect(() => u.chunk(uploadId, 3, Buffer.from('defg'))).toThrow(/More bytes/);
    u.chunk(uploadId, 3, Buffer.from('def'));
    expect(u.complete(uploadId).buffer.toString()).toBe('abcdef');
    expect(u.cancel(uploadId)).toBe(true);
    expect(() => u.get(uploadId)).toThrow(/cancelled or has expired/);
    expect(() => u.begin('big.dar', MAX_DAR_BYTES + 1)).toThrow(/MiB/);
  });

  it('forgets uploads idle for more than 15 minutes and keeps at most four', () => {
    let now = 0;
    const u = new DarUploads(() => now);
    const first = u.begin('a.dar', 1).uploadId;
    now += 16 * 60_000;
    expect(() => u.get(first)).toThrow(/expired/);
    const ids = [1, 2, 3, 4, 5].map(() => {
      now += 1;
      return u.begin('b.dar', 1).uploadId;
    });
    expect(u.size).toBe(4);
    expect(() => u.get(must(ids[0], 'ids[0]'))).toThrow();
    expect(u.get(must(ids[4], 'ids[4]')).fileName).toBe('b.dar');
  });
});

describe('problemsFromCanton', () => {
  it('takes the Reason part of the cause and upgrade-related context', () => {
    expect(
      problemsFromCanton({
        code: 'NOT_VALID_UPGRADE_PACKAGE',
        cause:
          'Upgrade checks indicate that new package a (p 2.0.0) cannot be an upgrade of existing package b (p 1.0.0). ' +
          'Reason: The upgraded template Asset is missing some of its original fields.',
        context: { upgradeError: 'MissingField(label)', participant: 'x' },
      }),
    ).toEqual(['The upgraded template Asset is missing some of its original fields.', 'MissingField(label)']);
    expect(problemsFromCanton({ code: 'X', cause: 'plain cause', context: {} })).toEqual(['plain cause']);
    expect(
      problemsFromCanton({
        code: 'X',
        cause: 'Bad. Reason: field a was removed; field b has type Text; fields added must be Optional',
        context: { problems: 'field a was removed' },
      }),
    ).toEqual(['field a was removed', 'field b has type Text; fields added must be Optional']);
    expect(problemsFromCanton(undefined)).toEqual([]);
  });
});

describe('vetting helpers', () => {
  const st = (serial: number, pkgs: Array<[string, string | null]>): VettingState => ({
    participantId: 'P',
    synchronizerId: 'S',
    topologySerial: serial,
    packages: pkgs.map(([id, until]) => ({
      packageId: id,
      packageName: `n-${id}`,
      packageVersion: '1',
      validFrom: null,
      validUntil: until,
    })),
  });
  it('diffs before/after into vetted, unvetted and bounds changes', () => {
    expect(
      diffVetting(
        st(1, [
          ['a', null],
          ['b', null],
          ['c', null],
        ]),
        st(2, [
          ['a', null],
          ['c', '2030-01-01T00:00:00Z'],
          ['d', null],
        ]),
      ),
    ).toEqual({
      vetted: [expect.objectContaining({ packageId: 'd' })],
      unvetted: [expect.objectContaining({ packageId: 'b' })],
      boundsChanged: [expect.objectContaining({ packageId: 'c' })],
    });
    expect(diffVetting(null, st(1, [['a', null]])).vetted.map((p) => p.packageId)).toEqual(['a']);
  });
  it('maps contract changes to Ledger API operations', () => {
    expect(toApiChange({ op: 'vet', packageId: 'a' })).toEqual({ operation: { Vet: { value: { packages: [{ packageId: 'a' }] } } } });
    expect(toApiChange({ op: 'unvet', packageId: 'b' })).toEqual({ operation: { Unvet: { value: { packages: [{ packageId: 'b' }] } } } });
  });
});

describe('archive decoding', () => {
  it('summarises a real archive into the detail shape the contract accepts', () => {
    const a = encodeArchive(desc);
    const d = decodeArchiveBytes(a.packageId, a.bytes);
    expect(d).toMatchObject({ packageId: a.packageId, lfVersion: '2.1', error: null });
    const detail = PackageDetailSchema.parse(packageDetail(must(d.summary, 'd.summary'), d.archiveBytes));
    const t = must(must(detail.modules[0], 'detail.modules[0]').templates[0], 'detail.modules[0].templates[0]');
    expect(t).toMatchObject({ qualifiedName: 'Main:T', key: 'Party', fields: [{ name: 'p', type: 'Party' }] });
    expect(t.choices.find((c) => c.name === 'Go')).toMatchObject({ consuming: false, argFields: [{ name: 'to', type: 'Party' }] });
    expect(must(must(detail.modules[0], 'detail.modules[0]').interfaces[0], 'detail.modules[0].interfaces[0]').viewFields).toEqual([
      { name: 'who', type: 'Party' },
    ]);
  });
  it('records why an archive could not be used instead of throwing', () => {
    const a = encodeArchive(desc);
    expect(decodeArchiveBytes('0'.repeat(64), a.bytes).error).toMatch(/not the requested package id/);
    expect(decodeArchiveBytes(a.packageId, new Uint8Array([1, 2, 3])).error).toMatch(/^[A-Z_]+: /);
    expect(decodeArchiveBytes(a.packageId, buildDar(desc).bytes).summary).toBeNull();
  });
});

const row = (p: Partial<PackageRow> & { packageId: string }): PackageRow => ({
  name: '',
  version: '',
  lfVersion: '2.1',
  uploaded: true,
  vetted: [],
  templateCount: 0,
  interfaceCount: 0,
  decodeError: null,
  ...p,
});

describe('renderer: package search and status', () => {
  const rows = [
    row({
      packageId: 'a'.repeat(64),
      name: 'splice-amulet',
      version: '0.1.9',
      vetted: [{ synchronizerId: 'g::1', participantId: 'P', validFrom: null, validUntil: null }],
    }),
    row({ packageId: 'b'.repeat(64), name: 'my-app', version: '2.0.0', lfVersion: '2.dev' }),
  ];
  it('matches every word against name, version, id and LF version, and status keywords', () => {
    expect(filterPackages(rows, 'amulet').map((r) => r.name)).toEqual(['splice-amulet']);
    expect(filterPackages(rows, 'my 2.0').map((r) => r.name)).toEqual(['my-app']);
    expect(filterPackages(rows, 'bbbb').map((r) => r.name)).toEqual(['my-app']);
    expect(filterPackages(rows, 'lf2.dev').map((r) => r.name)).toEqual(['my-app']);
    expect(filterPackages(rows, 'vetted:no').map((r) => r.name)).toEqual(['my-app']);
    expect(filterPackages(rows, 'vetted:yes').map((r) => r.name)).toEqual(['splice-amulet']);
    expect(filterPackages(rows, '  ')).toHaveLength(2);
    expect(filterPackages(rows, 'nothing-like-this')).toEqual([]);
  });
  it('describes vetting coverage', () => {
    expect(vettingStatus(must(rows[0], 'rows[0]'), 1)).toEqual({ label: 'Vetted', tone: 'ok' });
    expect(vettingStatus(must(rows[0], 'rows[0]'), 2)).toEqual({ label: 'Vetted on 1 of 2', tone: 'warning' });
    expect(vettingStatus(must(rows[1], 'rows[1]'), 2)).toEqual({ label: 'Not vetted', tone: 'muted' });
    expect(syncLabel('global-domain::1220ab', new Map())).toBe('global-domain');
    expect(syncLabel('global-domain::1220ab', new Map([['global-domain::1220ab', 'global']]))).toBe('global');
  });
});

describe('renderer: vetting matrix and staged changes', () => {
  const list: VettingList = {
    participantId: 'P1',
    synchronizers: [
      { synchronizerId: 'S1', alias: 'one' },
      { synchronizerId: 'S2', alias: 'two' },
    ],
    states: [
      {
        participantId: 'P2',
        synchronizerId: 'S1',
        topologySerial: 7,
        packages: [{ packageId: 'x', packageName: 'pkg', packageVersion: '1.0.0', validFrom: null, validUntil: null }],
      },
      {
        participantId: 'P1',
        synchronizerId: 'S1',
        topologySerial: 3,
        packages: [{ packageId: 'x', packageName: 'pkg', packageVersion: '1.0.0', validFrom: null, validUntil: null }],
      },
    ],
  };
  it('has a column per local synchronizer first, then remote participants; rows for uploaded but unvetted packages too', () => {
    const m = vettingMatrix(list, [row({ packageId: 'y', name: 'other', version: '0.1.0' })]);
    expect(m.columns.map((c) => [c.participantId, c.synchronizerId, c.local, c.topologySerial])).toEqual([
      ['P1', 'S1', true, 3],
      ['P1', 'S2', true, null],
      ['P2', 'S1', false, 7],
    ]);
    expect(m.rows.map((r) => [r.name, Object.keys(r.cells).length])).toEqual([
      ['other', 0],
      ['pkg', 2],
    ]);
  });
  it('toggles staged changes, undoing when toggled back, and orders vets before unvets', () => {
    let s = toggleStaged({}, 'P1|S1', 'x', true);
    expect(s).toEqual({ 'P1|S1': { x: false } });
    s = toggleStaged(s, 'P1|S1', 'y', false);
    expect(changesFor(s, 'P1|S1')).toEqual([
      { op: 'vet', packageId: 'y' },
      { op: 'unvet', packageId: 'x' },
    ]);
    expect(stagedCount(s)).toBe(2);
    s = toggleStaged(s, 'P1|S1', 'x', true);
    s = toggleStaged(s, 'P1|S1', 'y', false);
    expect(s).toEqual({});
    expect(changesFor(s, 'P1|S1')).toEqual([]);
  });
  it('stages validity bounds: vet with them (also an already vetted package), never with an unvet', () => {
    const bounds = { validFrom: '2026-12-01T00:00:00.000Z', validUntil: null };
    let b = stageBounds({}, 'P1|S1', 'a', bounds);
    expect(changesFor({}, 'P1|S1', b)).toEqual([{ op: 'vet', packageId: 'a', validFrom: '2026-12-01T00:00:00.000Z', validUntil: null }]);
    expect(stagedCount({}, b)).toBe(1);
    const s = toggleStaged(toggleStaged({}, 'P1|S1', 'a', false), 'P1|S1', 'z', true);
    expect(changesFor(s, 'P1|S1', b)).toEqual([
      { op: 'vet', packageId: 'a', validFrom: '2026-12-01T00:00:00.000Z', validUntil: null },
      { op: 'unvet', packageId: 'z' },
    ]);
    expect(stagedCount(s, b)).toBe(2);
    // Unvetting wins over staged bounds.
    expect(changesFor(toggleStaged({}, 'P1|S1', 'a', true), 'P1|S1', b)).toEqual([{ op: 'unvet', packageId: 'a' }]);
    b = stageBounds(b, 'P1|S1', 'a', null);
    expect(b).toEqual({});
  });
  it('converts bounds between datetime-local inputs and ISO instants, and checks their order', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('not a time')).toBeUndefined();
    const iso = must(localInputToIso('2026-12-01T10:30'), "localInputToIso('2026-12-01T10:30')");
    expect(isoToLocalInput(iso)).toBe('2026-12-01T10:30');
    expect(boundsError({ validFrom: '2026-12-02T00:00:00Z', validUntil: '2026-12-01T00:00:00Z' })).toMatch(/after/);
    expect(boundsError({ validFrom: '2026-12-01T00:00:00Z', validUntil: null })).toBe('');
    expect(toApiChange({ op: 'vet', packageId: 'a', validFrom: '2026-12-01T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' })).toEqual({
      operation: {
        Vet: {
          value: {
            packages: [{ packageId: 'a' }],
            newValidFromInclusive: '2026-12-01T00:00:00Z',
            newValidUntilExclusive: '2027-01-01T00:00:00Z',
          },
        },
      },
    });
  });
  it('parses party lists', () => {
    expect(parseParties(' a::1, b::2\nc::3  a::1 ')).toEqual(['a::1', 'b::2', 'c::3']);
    expect(parseParties('')).toEqual([]);
  });
});

describe('renderer: upload helpers', () => {
  it('refuses empty and oversized files before reading them', () => {
    expect(checkFile({ name: 'x.dar', size: 0 })).toMatch(/empty/);
    expect(checkFile({ name: 'x.dar', size: MAX_DAR_BYTES + 1 })).toMatch(/at most 64\.0 MiB/);
    expect(checkFile({ name: 'x.dar', size: 10 })).toBeNull();
  });
  it('chunks a file and counts progress', () => {
    expect(chunkRanges(10, 4)).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
    expect(chunkRanges(0, 4)).toEqual([]);
    expect(percent(1, 3)).toBe(33);
    expect(percent(5, 0)).toBe(0);
  });
  it('marks the phase steps', () => {
    expect(stepState('reading', 'reading')).toBe('current');
    expect(stepState('reading', 'uploading')).toBe('pending');
    expect(stepState('validated', 'validating')).toBe('done');
    expect(stepState('validated', 'uploading')).toBe('pending');
    expect(stepState('uploading', 'validating')).toBe('done');
    expect(stepState('done', 'done')).toBe('done');
    expect(stepState('failed', 'reading')).toBe('pending');
    // A report that refuses the DAR marks validation failed, not done.
    expect(stepState('validated', 'validating', true)).toBe('failed');
    expect(stepState('validated', 'reading', true)).toBe('done');
  });
});
