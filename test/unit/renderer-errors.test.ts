import { describe, expect, it } from 'vitest';
import { IpcCallError } from '../../src/ipc/client.js';
import type { IpcError } from '../../src/ipc/errors.js';
import { asIpcError, cantonFields, contextEntries, describeError, fieldIssues, grpcStatus } from '../../renderer/src/lib/errors.js';
import { must } from '../support/must.js';

const ledgerError: IpcError = {
  code: 'LEDGER_API_ERROR',
  message: 'CONTRACT_NOT_FOUND: Contract could not be found',
  canton: {
    code: 'CONTRACT_NOT_FOUND',
    cause: 'Contract could not be found with id 00abc',
    context: { participant: 'participant1', category: '11', contractId: '00abc' },
    errorCategory: 11,
    grpcCodeValue: 5,
    correlationId: 'c0ffee',
    traceId: 'c0ffee',
    httpStatus: 404,
  },
};

describe('renderer error formatting', () => {
  it('keeps the IpcError carried by IpcCallError and wraps anything else as INTERNAL', () => {
    expect(asIpcError(new IpcCallError(ledgerError))).toBe(ledgerError);
    expect(asIpcError(new Error('boom'))).toEqual({ code: 'INTERNAL', message: 'boom' });
    expect(asIpcError('plain')).toEqual({ code: 'INTERNAL', message: 'plain' });
  });

  it('lists Canton code, cause and metadata as labelled rows, without duplicating an equal trace id', () => {
    const rows = cantonFields(must(ledgerError.canton, 'ledgerError.canton'));
    expect(rows).toEqual([
      ['Code', 'CONTRACT_NOT_FOUND'],
      ['Cause', 'Contract could not be found with id 00abc'],
      ['Category', '11'],
      ['gRPC status', '5 NOT_FOUND'],
      ['HTTP status', '404'],
      ['Correlation id', 'c0ffee'],
    ]);
  });

  it('sorts the context map by key', () => {
    expect(contextEntries(must(ledgerError.canton, 'ledgerError.canton')).map(([k]) => k)).toEqual([
      'category',
      'contractId',
      'participant',
    ]);
  });

  it('gives actionable titles for the codes an operator meets', () => {
    expect(describeError({ code: 'UNREACHABLE', message: 'x' }).hint).toMatch(/Ledger API URL/);
    expect(describeError({ code: 'FORBIDDEN', message: 'x' }).hint).toMatch(/token/);
    expect(grpcStatus(99)).toBe('99');
  });

  it('routes BAD_REQUEST issues to their form fields and keeps the rest', () => {
    const { byField, rest } = fieldIssues(
      {
        code: 'BAD_REQUEST',
        message: 'Invalid request',
        issues: [
          { path: 'name', message: 'name is required' },
          { path: 'ledgerApiUrl', message: 'must be an absolute URL' },
          { path: 'ledgerApiUrl', message: 'must start with http:// or https://' },
          { path: '(root)', message: 'unrecognized key' },
        ],
      },
      ['name', 'ledgerApiUrl', 'validatorApiUrl', 'token'] as const,
    );
    expect(byField).toEqual({
      name: 'name is required',
      ledgerApiUrl: 'must be an absolute URL; must start with http:// or https://',
    });
    expect(rest).toEqual([{ path: '(root)', message: 'unrecognized key' }]);
    expect(fieldIssues(null, ['name'] as const)).toEqual({ byField: {}, rest: [] });
  });
});
