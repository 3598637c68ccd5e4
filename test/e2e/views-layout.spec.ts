/**
 * Every view in light and dark at 1440×900 and 1024×700 (browser host + embedded simulator with its seed data): the
 * view opens at its heading (not scrolled past it), nothing overflows the content pane sideways, no select is cut
 * short of its text, the Parties and Users tables fit without scrolling sideways, and template names never break
 * inside a word. Screenshots go to test/e2e/screenshots/views/.
 */
import { test, expect, type Page } from '@playwright/test';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process.js';
import { ifAssigned } from '../support/if-assigned.js';

let consoleProc: ConsoleProcess;
test.beforeAll(async () => {
  consoleProc = await startConsoleProcess();
});
test.afterAll(async () => {
  await ifAssigned(consoleProc)?.stop();
});

const VIEWS = [
  'dashboard',
  'updates',
  'contracts',
  'commands',
  'parties',
  'users',
  'idps',
  'packages',
  'wallet',
  'external-wallet',
  'keys',
  'signing',
  'offline',
  'audit',
  'connections',
];
/** Views whose list table must fit without a horizontal scroll bar, with the test id of its scroll box. */
const TABLES: Record<string, string> = { parties: 'party-table-scroll', users: 'user-table-scroll' };
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

/** Layout facts of the open view, measured in the page. */
async function measure(page: Page) {
  return page.evaluate(() => {
    // runs in the page, where the test's helpers are not: a missing element throws here and fails the test
    const main = document.querySelector<HTMLElement>('main#main');
    const heading = main?.querySelector('h1');
    if (!main || !heading) throw new Error('the open view has no main#main with an h1');
    const h1 = heading.getBoundingClientRect();
    const mainBox = main.getBoundingClientRect();
    // a select narrower than its chosen option's text (the text is cut)
    const cutSelects = Array.from(main.querySelectorAll<HTMLSelectElement>('select'))
      .filter((s) => s.offsetParent !== null && s.selectedIndex >= 0)
      .filter((s) => {
        const text = s.options[s.selectedIndex]?.text ?? '';
        const c = document.createElement('canvas').getContext('2d');
        if (!c) throw new Error('no 2d canvas context to measure text');
        c.font = getComputedStyle(s).font;
        return c.measureText(text).width > s.clientWidth - 24;
      })
      .map((s) => s.id || s.getAttribute('data-testid') || s.outerHTML.slice(0, 60));
    return {
      headingVisible: h1.top >= mainBox.top - 1 && h1.bottom <= mainBox.bottom,
      scrollTop: main.scrollTop,
      overflowX: main.scrollWidth - main.clientWidth,
      cutSelects,
    };
  });
}

for (const size of SIZES) {
  test(`every view at ${size.width}×${size.height}, light and dark`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    await page.goto(consoleProc.url);
    await expect(page.getByTestId('dashboard')).toBeVisible();
    for (const id of VIEWS) {
      await page.locator(`nav a[href="#/${id}"]`).click();
      const view = page.getByTestId(id).first();
      await expect(view).toBeVisible();
      // let first reads settle: no loading indicator left in the view (bounded; some views poll)
      await expect
        .poll(async () => page.locator('main [aria-busy="true"], main .spinner').count(), { timeout: 15_000 })
        .toBe(0)
        .catch(() => undefined);
      const m = await measure(page);
      expect.soft(m.headingVisible, `${id}: heading in view (scrollTop ${m.scrollTop})`).toBe(true);
      expect.soft(m.overflowX, `${id}: sideways overflow`).toBeLessThanOrEqual(1);
      expect.soft(m.cutSelects, `${id}: selects cut short`).toEqual([]);
      const table = TABLES[id];
      if (table) {
        // The list tables fit their column: no sideways scroll inside their own scroll box either.
        const scroller = page.getByTestId(table);
        await expect(scroller.locator('tbody tr').first()).toBeVisible();
        const sideways = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect.soft(sideways, `${id}: table scrolls sideways`).toBeLessThanOrEqual(1);
      }
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: `test/e2e/screenshots/views/${id}-${size.width}-${theme}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
}

test('template names in Contracts break only between words, also at 1024 px', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(consoleProc.url);
  await page.locator('nav a[href="#/contracts"]').click();
  await page.getByTestId('acs-parties-input').fill('Alice');
  await page.getByTestId('acs-parties-input').press('Enter');
  await page.getByTestId('acs-load').click();
  await expect(page.getByTestId('contract-row').first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test/e2e/screenshots/views/contracts-rows-1024.png' });
  const broken = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-testid=contract-row] td:first-child .admin-row-button'))
      .filter((b) => {
        // a single word on two lines: more than one line box while the text has no space or separator
        const lines = b.getClientRects().length > 1 || b.getBoundingClientRect().height > parseFloat(getComputedStyle(b).lineHeight) * 1.5;
        return lines && !/[\s.:_]/.test(b.textContent.trim());
      })
      .map((b) => b.textContent.trim()),
  );
  expect(broken).toEqual([]);
});
