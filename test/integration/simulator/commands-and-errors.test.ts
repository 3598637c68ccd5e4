import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, call, cantonError, createIou, ledgerEnd, nextCommandId, startTestSim, submitTx, updates, wildcard } from './helpers.js';
import type { TestSim } from './helpers.js';

const jwt = (payload: object): string =>
  `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.` +
  `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJl`;

describe('commands, deduplication, completions and error shapes', () => {
  let sim: TestSim;
  let bank: string, alice: string;
  beforeAll(async () => {
    sim = await startTestSim({ settings: { httpListMaxElementsLimit: 5 } });
    bank = await allocate(sim.url, 'Bank');
    alice = await allocate(sim.url, 'Alice');
  });
  afterAll(async () => {
    await sim.dispose();
  });

  it('deduplicates the same commandId + actAs with DUPLICATE_COMMAND (409)', async () => {
    const commandId = nextCommandId('dedup');
    const body = { commandId, actAs: [bank], commands: [createIou(bank, alice, '1')], submissionId: 'sub-1' };
    const first = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body });
    expect(first.status).toBe(200);
    const end = await ledgerEnd(sim.url);
    const second = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body: { ...body, submissionId: 'sub-2' } });
    expect(second.status).toBe(409);
    const err = cantonError(second);
    expect(err.code).toBe('DUPLICATE_COMMAND');
    expect(err.errorCategory).toBe(10);
    expect(err.grpcCodeValue).toBe(6);
    expect((second.json as { context: Record<string, string> }).context.existing_submission_id).toBe('sub-1');
    expect(await ledgerEnd(sim.url)).toBe(end); // nothing written
    // async submit is deduplicated too
    const third = await call(sim.url, 'POST', '/v2/commands/async/submit', { body });
    expect(third.status).toBe(409);
    // another actAs set is another command
    const other = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body: { ...body, actAs: [bank, alice] } });
    expect(other.status).toBe(200);
    // a deduplication offset after the first completion lets the command through again
    const byOffset = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      body: {
        ...body,
        deduplicationPeriod: { DeduplicationOffset: { value: (first.json as { completionOffset: number }).completionOffset } },
      },
    });
    expect(byOffset.status).toBe(200);
  });

  it('reports completions for the submitting parties only, with a checkpoint when the last one is before the ledger end', async () => {
    const commandId = nextCommandId('compl');
    await call(sim.url, 'POST', '/v2/commands/async/submit', {
      body: { commandId, actAs: [alice], commands: [createIou(alice, alice, '2')], workflowId: 'wf-1' },
    });
    const r = await call(sim.url, 'POST', '/v2/commands/completions', { body: { parties: [alice], beginExclusive: 0 } });
    expect(r.status).toBe(200);
    const items = r.json as { completionResponse: Record<string, { value: { commandId?: string; offset: number } }> }[];
    const completions = items.filter((i) => 'Completion' in i.completionResponse).map((i) => i.completionResponse.Completion?.value);
    expect(completions.map((c) => c?.commandId)).toContain(commandId);
    expect(completions.every((c) => c?.commandId !== undefined)).toBe(true);
    // the last completion is at the ledger end: no checkpoint after it (as the update lists and the WebSocket stream)
    expect(Object.keys(items.at(-1)?.completionResponse ?? {})).toEqual(['Completion']);
    await submitTx(sim.url, [bank], [createIou(bank, bank, '1')]);
    const later = (await call(sim.url, 'POST', '/v2/commands/completions', { body: { parties: [alice], beginExclusive: 0 } }))
      .json as typeof items;
    expect(Object.keys(later.at(-1)?.completionResponse ?? {})).toEqual(['OffsetCheckpoint']);
    const other = await call(sim.url, 'POST', '/v2/commands/completions', {
      body: { parties: [alice], beginExclusive: 0, userId: 'someone-else' },
    });
    expect((other.json as unknown[]).length).toBe(1); // only the checkpoint
  });

  it('answers undecodable bodies with 400 text/plain', async () => {
    const bad = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { rawBody: '{"commandId": ', validate: false });
    expect(bad.status).toBe(400);
    expect(bad.contentType).toMatch(/^text\/plain/);
    const missing = await call(sim.url, 'POST', '/v2/commands/submit-and-wait', { body: { actAs: [bank], commands: [] } });
    expect(missing.status).toBe(400);
    expect(missing.contentType).toMatch(/^text\/plain/);
    expect(missing.text).toContain('commandId');
    const badParam = await call(sim.url, 'POST', '/v2/updates', {
      path: '/v2/updates?limit=abc',
      body: { beginExclusive: 0, filter: wildcard(bank) },
    });
    expect(badParam.status).toBe(400);
    expect(badParam.contentType).toMatch(/^text\/plain/);
    const badPath = await call(sim.url, 'GET', '/v2/updates/transaction-tree-by-offset/{offset}', {
      path: '/v2/updates/transaction-tree-by-offset/x1',
    });
    expect(badPath.status).toBe(400);
  });

  it('answers unknown paths with 404 and wrong methods with 405 JsCantonError', async () => {
    const r = await call(sim.url, 'GET', '/v2/version', { path: '/v2/nothing/here', validate: false });
    expect(r.status).toBe(404);
    expect(cantonError(r).errorCategory).toBe(11);
    const m = await call(sim.url, 'GET', '/v2/version', { path: '/v2/commands/submit-and-wait', validate: false });
    expect(m.status).toBe(405);
    cantonError(m);
  });

  it('returns 413 above http-list-max-elements-limit unless a smaller limit is given', async () => {
    for (let i = 0; i < 6; i++)
      await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
        body: { commandId: nextCommandId('many'), actAs: [bank], commands: [createIou(bank, bank, '1')] },
      });
    const tooMany = await updates(sim.url, { beginExclusive: 0, filter: wildcard(bank) });
    expect(tooMany.status).toBe(413);
    expect(cantonError(tooMany).code).toBe('JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
    const limited = await updates(sim.url, { beginExclusive: 0, filter: wildcard(bank) }, '/v2/updates', '?limit=3');
    expect(limited.status).toBe(200);
    expect((limited.json as unknown[]).length).toBe(3);
    const acsTooMany = await call(sim.url, 'POST', '/v2/state/active-contracts', {
      body: { activeAtOffset: await ledgerEnd(sim.url), eventFormat: wildcard(bank) },
    });
    expect(acsTooMany.status).toBe(413);
    // pages are the way around the limit
    const page1 = await call(sim.url, 'POST', '/v2/state/active-contracts-page', { body: { eventFormat: wildcard(bank), maxPageSize: 4 } });
    const p1 = page1.json as { activeContracts: unknown[]; nextPageToken?: string; activeAtOffset: number };
    expect(p1.activeContracts).toHaveLength(4);
    expect(p1.nextPageToken).toBeDefined();
    const page2 = await call(sim.url, 'POST', '/v2/state/active-contracts-page', {
      body: { eventFormat: wildcard(bank), maxPageSize: 4, pageToken: p1.nextPageToken },
    });
    expect((page2.json as { activeContracts: unknown[] }).activeContracts.length).toBeGreaterThan(0);
    const up1 = await call(sim.url, 'POST', '/v2/updates/get-updates-page', {
      body: {
        maxPageSize: 2,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
      },
    });
    const u1 = up1.json as { updates: { update: { Transaction: { value: { offset: number } } } }[]; nextPageToken?: string };
    expect(u1.updates).toHaveLength(2);
    const up2 = await call(sim.url, 'POST', '/v2/updates/get-updates-page', {
      body: {
        maxPageSize: 2,
        pageToken: u1.nextPageToken,
        updateFormat: { includeTransactions: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: wildcard(bank) } },
      },
    });
    const u2 = up2.json as { updates: { update: { Transaction: { value: { offset: number } } } }[] };
    expect(u2.updates[0]?.update.Transaction.value.offset).toBeGreaterThan(u1.updates[1]?.update.Transaction.value.offset ?? Infinity);
  });

  it('rejects reads after the ledger end', async () => {
    const end = await ledgerEnd(sim.url);
    const r = await updates(sim.url, { beginExclusive: end + 10, filter: wildcard(bank) });
    expect(r.status).toBe(400);
    expect(cantonError(r).code).toBe('OFFSET_AFTER_LEDGER_END');
    const a = await call(sim.url, 'POST', '/v2/state/active-contracts', { body: { activeAtOffset: end + 1, eventFormat: wildcard(bank) } });
    expect(cantonError(a).code).toBe('OFFSET_AFTER_LEDGER_END');
  });

  it('serves the bearer token subject as the authenticated user (demo mode, signature not verified)', async () => {
    const anon = await call(sim.url, 'GET', '/v2/authenticated-user');
    expect((anon.json as { user: { id: string } }).user.id).toBe('participant_admin');
    const withToken = await call(sim.url, 'GET', '/v2/authenticated-user', {
      headers: { authorization: `Bearer ${jwt({ sub: 'ledger-api-user', aud: 'x' })}` },
    });
    expect((withToken.json as { user: { id: string } }).user.id).toBe('ledger-api-user');
    const garbage = await call(sim.url, 'GET', '/v2/authenticated-user', { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(garbage.status).toBe(401);
    expect(cantonError(garbage).code).toBe('UNAUTHENTICATED');
    // the token's user is the command's default userId
    const commandId = nextCommandId('tok');
    await call(sim.url, 'POST', '/v2/commands/submit-and-wait', {
      headers: { authorization: `Bearer ${jwt({ sub: 'ledger-api-user' })}` },
      body: { commandId, actAs: [alice], commands: [createIou(alice, alice, '3')] },
    });
    const c = await call(sim.url, 'POST', '/v2/commands/completions', {
      body: { parties: [alice], beginExclusive: 0, userId: 'ledger-api-user' },
    });
    const ids = (c.json as { completionResponse: { Completion?: { value: { commandId: string; userId: string } } } }[]).flatMap((i) =>
      i.completionResponse.Completion ? [i.completionResponse.Completion.value] : [],
    );
    expect(ids.map((i) => i.commandId)).toEqual([commandId]);
  });
});
