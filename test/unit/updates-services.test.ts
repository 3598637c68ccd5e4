/** Update summaries, the ledger-effects event tree and the filter → UpdateFormat mapping. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExportFileNameSchema, UpdateFilterSchema, channels, subscriptions } from '../../src/ipc/contract.js';
import { buildUpdateFormat, eventTree, summarizeUpdate, type JsUpdate } from '../../src/services/ledger/updates.js';
import { exportFilePath } from '../../src/services/ledger/export-ndjson.js';
import { authSubprotocols, updatesWebSocketUrl } from '../../src/services/ledger/update-stream.js';
import { must } from '../support/must.js';

const created = (nodeId: number, cid: string, witnesses: string[]) => ({
  CreatedEvent: {
    offset: 5,
    nodeId,
    contractId: cid,
    templateId: 'pkg:Main:Iou',
    createdAt: '2026-01-01T00:00:00Z',
    packageName: 'p',
    representativePackageId: 'pkg',
    acsDelta: true,
    createArgument: {},
    witnessParties: witnesses,
    signatories: ['Bank::1'],
    observers: [],
  },
});
const exercised = (nodeId: number, last: number, choice: string) => ({
  ExercisedEvent: {
    offset: 5,
    nodeId,
    contractId: `c${nodeId}`,
    templateId: 'pkg:Main:Iou',
    choice,
    choiceArgument: {},
    consuming: true,
    lastDescendantNodeId: last,
    packageName: 'p',
    acsDelta: true,
    actingParties: ['Alice::1'],
    witnessParties: ['Alice::1'],
    implementedInterfaces: [],
    exerciseResult: {},
  },
});
const tx = (events: unknown[]): JsUpdate =>
  ({
    Transaction: {
      value: { updateId: 'u5', commandId: 'cmd', offset: 5, effectiveAt: 'e', recordTime: 'r', synchronizerId: 's', events },
    },
  }) as unknown as JsUpdate;

describe('event tree', () => {
  it('nests events under exercises by node id ranges', () => {
    // 0 Exercise(last 4) → 1 Create, 2 Exercise(last 3) → 3 Create; 4 Create; 5 Create (top level)
    const u = tx([
      created(5, 'c5', []),
      exercised(0, 4, 'Outer'),
      created(1, 'c1', []),
      exercised(2, 3, 'Inner'),
      created(3, 'c3', []),
      created(4, 'c4', []),
    ]);
    const t = eventTree(u);
    expect(t.map((e) => [e.nodeId, e.depth])).toEqual([
      [0, 0],
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 1],
      [5, 0],
    ]);
    expect(t[0]).toMatchObject({ kind: 'exercised', choice: 'Outer', consuming: true, lastDescendantNodeId: 4 });
    expect(JSON.parse(must(t[1], 't[1]').json)).toHaveProperty('CreatedEvent.contractId', 'c1');
  });

  it('keeps a visible child under the nearest visible ancestor when the filter hid its parent', () => {
    const t = eventTree(tx([exercised(0, 3, 'Outer'), created(2, 'c2', [])]));
    expect(t.map((e) => e.depth)).toEqual([0, 1]);
  });
});

describe('summaries', () => {
  it('counts events, templates and parties of a transaction', () => {
    const s = summarizeUpdate(tx([exercised(0, 2, 'Split'), created(1, 'a', ['Alice::1']), created(2, 'b', ['Alice::1'])]));
    expect(s).toMatchObject({
      offset: 5,
      kind: 'transaction',
      updateId: 'u5',
      commandId: 'cmd',
      eventCount: 3,
      counts: { exercised: 1, created: 2, archived: 0 },
      templates: ['Main:Iou'],
      parties: ['Alice::1', 'Bank::1'],
    });
  });

  it('summarises checkpoints and topology transactions', () => {
    expect(summarizeUpdate({ OffsetCheckpoint: { value: { offset: 9, synchronizerTimes: [] } } })).toMatchObject({
      kind: 'checkpoint',
      offset: 9,
      eventCount: 0,
    });
    const topo = {
      TopologyTransaction: {
        value: {
          updateId: 't',
          offset: 3,
          synchronizerId: 's',
          recordTime: 'r',
          events: [
            {
              event: {
                ParticipantAuthorizationAdded: {
                  value: { partyId: 'Zed::1', participantId: 'p', participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
                },
              },
            },
          ],
        },
      },
    } as unknown as JsUpdate;
    expect(summarizeUpdate(topo)).toMatchObject({ kind: 'topology', parties: ['Zed::1'], counts: { topology: 1 } });
    expect(eventTree(topo)[0]).toMatchObject({ kind: 'topology', choice: 'added', parties: ['Zed::1'] });
  });
});

describe('filter → UpdateFormat', () => {
  it('uses filtersForAnyParty with a wildcard when nothing is selected', () => {
    const f = buildUpdateFormat(UpdateFilterSchema.parse({}));
    expect(f.includeTransactions).toEqual({
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      eventFormat: {
        filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
        verbose: true,
      },
    });
    expect(f.includeReassignments).toEqual(f.includeTransactions?.eventFormat);
    expect(f.includeTopologyEvents).toBeUndefined();
  });

  it('builds per-party cumulative template and interface filters', () => {
    const f = buildUpdateFormat(
      UpdateFilterSchema.parse({
        parties: ['Alice::1'],
        templates: ['pkg:Main:Iou'],
        interfaces: ['#pkg:Main:Asset'],
        shape: 'LEDGER_EFFECTS',
        includeReassignments: false,
        includeTopology: true,
        includeCreatedEventBlob: true,
      }),
    );
    expect(f.includeTransactions?.transactionShape).toBe('TRANSACTION_SHAPE_LEDGER_EFFECTS');
    expect(f.includeTransactions?.eventFormat.filtersByParty).toEqual({
      'Alice::1': {
        cumulative: [
          { identifierFilter: { TemplateFilter: { value: { templateId: '#pkg:Main:Iou', includeCreatedEventBlob: true } } } },
          {
            identifierFilter: {
              InterfaceFilter: { value: { interfaceId: '#pkg:Main:Asset', includeInterfaceView: true, includeCreatedEventBlob: true } },
            },
          },
        ],
      },
    });
    expect(f.includeReassignments).toBeUndefined();
    expect(f.includeTopologyEvents).toEqual({ includeParticipantAuthorizationEvents: { parties: ['Alice::1'] } });
  });
});

describe('export file names and WebSocket details', () => {
  it('accepts plain names only and keeps the file inside the exports folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'export-name-'));
    expect(exportFilePath(dir, 'my export')).toBe(path.join(dir, 'my export.ndjson'));
    expect(exportFilePath(dir, 'x.ndjson')).toBe(path.join(dir, 'x.ndjson'));
    for (const bad of ['', '../x', 'a/b', 'a\\b', '.x', 'a:b', 'x'.repeat(200)]) {
      expect(ExportFileNameSchema.safeParse(bad).success, bad).toBe(false);
      expect(() => exportFilePath(dir, bad)).toThrow();
    }
  });

  it('derives the WebSocket URL and the auth subprotocols', () => {
    expect(updatesWebSocketUrl('http://127.0.0.1:7575/')).toBe('ws://127.0.0.1:7575/v2/updates');
    expect(updatesWebSocketUrl('https://node.example/api')).toBe('wss://node.example/api/v2/updates');
    expect(authSubprotocols('abc')).toEqual(['daml.ws.auth', 'jwt.token.abc']);
    expect(authSubprotocols(null)).toEqual([]);
  });

  it('declares the update channels in the contract', () => {
    expect(Object.keys(channels)).toEqual(
      expect.arrayContaining(['updates.parties', 'updates.range', 'updates.get', 'updates.stream.control']),
    );
    expect(Object.keys(subscriptions)).toEqual(expect.arrayContaining(['updates.stream', 'exports.run']));
    // exports go one way (exports.run): the channels each export had before are gone from the contract
    expect(Object.keys(subscriptions)).not.toContain('updates.export');
    for (const old of ['signing.keys.backup', 'signing.policy.export', 'signing.audit.export'])
      expect(Object.keys(channels)).not.toContain(old);
    expect(channels['updates.get'].request.safeParse({ filter: {} }).success).toBe(false);
    expect(channels['updates.get'].request.safeParse({ filter: {}, offset: 3 }).success).toBe(true);
    expect(channels['updates.range'].request.safeParse({ filter: {}, beginExclusive: 5, endInclusive: 4 }).success).toBe(false);
  });
});
