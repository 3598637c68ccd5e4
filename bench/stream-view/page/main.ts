/**
 * Bench page: `?n=100000&mode=virtual|naive`. Builds n synthetic update summaries (not timed),
 * then on `window.__run()` mounts the list and reports the time to the first painted frame and
 * the number of row elements in the DOM.
 */
import '../../../renderer/src/styles/app.css';
import { flushSync, mount } from 'svelte';
import type { UpdateSummary } from '../../../src/ipc/contract.js';
import { UpdateBuffer } from '../../../renderer/src/lib/updates/buffer.js';
import Bench from './Bench.svelte';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? '100000');
const mode = params.get('mode') === 'naive' ? 'naive' : 'virtual';

function summary(offset: number): UpdateSummary {
  return {
    offset,
    kind: offset % 17 === 0 ? 'topology' : 'transaction',
    updateId: `1220${offset.toString(16).padStart(60, '0')}`,
    recordTime: new Date(1_700_000_000_000 + offset * 1000).toISOString(),
    effectiveAt: null,
    commandId: `cmd-${offset}`,
    workflowId: null,
    synchronizerId: 'global-domain::1220abcd',
    eventCount: 2,
    counts: { created: 1, archived: 1, exercised: 0, assigned: 0, unassigned: 0, topology: 0 },
    templates: ['Demo.Iou:Iou'],
    parties: [`Alice::1220${offset % 7}`, 'Bank::1220aa'],
    partyCount: 2,
  };
}

const buffer = new UpdateBuffer();
const genStart = performance.now();
const BATCH = 2_000;
for (let start = 1; start <= n; start += BATCH) {
  const items: UpdateSummary[] = [];
  for (let o = start; o < Math.min(n + 1, start + BATCH); o++) items.push(summary(o));
  buffer.add(items);
}
const generateMs = performance.now() - genStart;

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

declare global {
  interface Window {
    __run: () => Promise<{ generateMs: number; renderMs: number; rows: number; scrollMs: number; appendMs: number; rowsAfter: number }>;
  }
}

window.__run = async () => {
  const target = document.getElementById('app');
  if (!target) throw new Error('bench page has no #app element');
  const t0 = performance.now();
  const api = { scrollTo: (_y: number) => {}, append: (_items: UpdateSummary[]) => {} };
  mount(Bench, { target, props: { buffer, mode, api } });
  flushSync();
  await frame();
  await frame();
  const renderMs = performance.now() - t0;
  const rows = document.querySelectorAll('[data-testid=update-row]').length;

  // Jump to the middle of the list: the window is re-rendered for the new position.
  const t1 = performance.now();
  api.scrollTo(Math.floor(n / 2) * 34);
  await frame();
  await frame();
  const scrollMs = performance.now() - t1;

  // A live batch of 2,000 newer updates arriving on top.
  const batch = Array.from({ length: 2_000 }, (_, i) => summary(n + 1 + i));
  const t2 = performance.now();
  api.append(batch);
  flushSync();
  await frame();
  await frame();
  const appendMs = performance.now() - t2;
  const rowsAfter = document.querySelectorAll('[data-testid=update-row]').length;
  return { generateMs, renderMs, rows, scrollMs, appendMs, rowsAfter };
};
