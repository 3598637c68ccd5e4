import { describe, expect, it } from 'vitest';
import { parseDisclosed } from '../../renderer/src/lib/commands/disclosed.js';
import { stringMatching } from '../support/matchers.js';

describe('parseDisclosed', () => {
  it('reads the Ledger API shape (camelCase)', () => {
    expect(
      parseDisclosed(JSON.stringify({ contractId: ' 00ab ', templateId: '#p:M:T', createdEventBlob: 'AAA=', synchronizerId: 's::1' })),
    ).toEqual({
      row: { contractId: '00ab', templateId: '#p:M:T', createdEventBlob: 'AAA=', synchronizerId: 's::1' },
    });
  });
  it("reads Splice Scan's shape (snake_case, wrapped, with domain_id)", () => {
    const text = JSON.stringify({
      contract: { contract_id: '00cd', template_id: 'pkg:M:T', created_event_blob: 'QQ==' },
      domain_id: 'global::1',
    });
    expect(parseDisclosed(text)).toEqual({
      row: { contractId: '00cd', templateId: 'pkg:M:T', createdEventBlob: 'QQ==', synchronizerId: 'global::1' },
    });
  });
  it('says what is missing or wrong', () => {
    expect(parseDisclosed('{ nope')).toEqual({ error: stringMatching(/^Not JSON/) });
    expect(parseDisclosed('[1]')).toEqual({ error: stringMatching(/one JSON object/) });
    expect(parseDisclosed(JSON.stringify({ contractId: '00ab' }))).toEqual({ error: 'The JSON lacks templateId, createdEventBlob' });
  });
});
