/** Pure parts of the signing flows and the signing views: command composition, clear-sign fields, display helpers, QR. */
import { describe, expect, it } from 'vitest';
import { buildCommand } from '../../../src/services/signing-flows/index.js';
import { clearSignWire } from '../../../src/services/signing/index.js';
import { ConsoleError } from '../../../src/ipc/errors.js';
import { channels } from '../../../src/ipc/contract.js';
import { groupedHex, reasonTitle } from '../../../renderer/src/lib/signing/format.js';
import { qrPath } from '../../../renderer/src/lib/signing/qr.js';
import { must } from '../../support/must.js';

describe('buildCommand', () => {
  it('builds a CreateCommand with the arguments object and a #package reference', () => {
    expect(buildCommand({ kind: 'create', templateId: 'simulator-demo:Demo.Iou:Iou', argumentsJson: '{"a": 1}' })).toEqual({
      CreateCommand: { templateId: '#simulator-demo:Demo.Iou:Iou', createArguments: { a: 1 } },
    });
  });
  it('keeps package-id references as they are', () => {
    const pkg = 'a'.repeat(64);
    expect(buildCommand({ kind: 'create', templateId: `${pkg}:M:T`, argumentsJson: '{}' })).toMatchObject({
      CreateCommand: { templateId: `${pkg}:M:T` },
    });
  });
  it('builds an ExerciseCommand; an empty argument is the empty record', () => {
    expect(buildCommand({ kind: 'exercise', templateId: '#p:M:T', contractId: '00ab', choice: 'Go', argumentsJson: '  ' })).toEqual({
      ExerciseCommand: { templateId: '#p:M:T', contractId: '00ab', choice: 'Go', choiceArgument: {} },
    });
  });
  it('refuses invalid JSON and non-record create arguments with a field issue', () => {
    for (const argumentsJson of ['{nope', '[1,2]', '"text"']) {
      let err: unknown;
      try {
        buildCommand({ kind: 'create', templateId: '#p:M:T', argumentsJson });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConsoleError);
      expect((err as ConsoleError).issues?.[0]?.path).toBe('argumentsJson');
    }
  });
});

describe('signing channel schemas', () => {
  it('reject a template id that is not package:Module:Entity, and unknown fields', () => {
    const req = channels['signing.prepare'].request;
    const party = 'p::1220' + 'a'.repeat(64);
    const fingerprint = '1220' + 'b'.repeat(64);
    expect(req.safeParse({ party, fingerprint, command: { kind: 'create', templateId: 'Iou', argumentsJson: '{}' } }).success).toBe(false);
    expect(
      req.safeParse({ party, fingerprint, command: { kind: 'create', templateId: '#p:M:T', argumentsJson: '{}', extra: 1 } }).success,
    ).toBe(false);
    expect(req.safeParse({ party, fingerprint, command: { kind: 'create', templateId: '#p:M:T', argumentsJson: '{}' } }).success).toBe(
      true,
    );
  });
  it('have no channel that takes or returns private key material', () => {
    const names = Object.keys(channels).filter((c) => c.startsWith('signing.'));
    expect(names.length).toBeGreaterThan(20);
    for (const n of names) expect(n).not.toMatch(/seed|signHash|privateKey|exportSeeds|importSeed/i);
  });
});

describe('clearSignWire', () => {
  it('lists the transfer fields in reading order', () => {
    const w = clearSignWire({
      kind: 'token-transfer',
      sender: 'a::1',
      receiver: 'b::2',
      amount: '10.5',
      instrument: { admin: 'dso::3', id: 'Amulet' },
      memo: null,
      executeBefore: '2030-01-01T00:00:00Z',
      proxyProvider: null,
    });
    expect(w.title).toBe('Token transfer');
    expect(w.fields.map((f) => f.label)).toEqual(['From', 'To', 'Amount', 'Instrument admin', 'Memo', 'Execute before']);
    expect(w.fields[2]).toEqual({ label: 'Amount', value: '10.5', kind: 'amount', unit: 'Amulet' });
    expect(must(w.fields[0], 'w.fields[0]').kind).toBe('party');
    expect(must(w.fields[4], 'w.fields[4]').value).toBe('—');
  });
});

describe('display helpers', () => {
  it('groups hex and names refusal reasons', () => {
    expect(groupedHex('0011223344')).toBe('0011 2233 44');
    expect(reasonTitle('HASH_MISMATCH')).toMatch(/hash/);
    expect(reasonTitle('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });
  it('encodes a signature response as a QR path, compacting JSON first', () => {
    const text = JSON.stringify({ format: 'canton-console/signature-response', signatures: ['x'.repeat(88)] }, null, 2);
    const qr = must(qrPath(text), 'qrPath(text)');
    expect(qr.size).toBeGreaterThanOrEqual(21);
    expect(qr.d).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(qrPath('x'.repeat(5000))).toBeNull();
  });
});
