import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openInBrowser, testArtefactPath, type OpenedPage } from '../helpers/browser';
import { allProtocolRecords, withConfirmations, writeRecordsJsonl } from '../helpers/reportRecords';

// `envgap report --input` on the paper's imported data (three of its instances with a phantom
// confirmation added), README records and an imported ResearchEnvBench run, opened in a real headless
// Chromium: no console error, no request, every figure drawn.
const REPO = path.resolve(__dirname, '../..');
const UI = 'http://127.0.0.1:8233';
let opened: OpenedPage;
let html: string;
let instances: number;
const CONFIRMED = 3;

beforeAll(async () => {
  const all = await allProtocolRecords();
  const records = { ...all, instances: withConfirmations(all.instances, CONFIRMED) };
  instances = records.instances.filter((r) => r.trial === 1).length;
  const input = writeRecordsJsonl(records);
  const out = path.join(path.dirname(input), 'report.html');
  execFileSync('node', [path.join(REPO, 'bin/envgap.js'), 'report', '--input', input, '--out', out, '--ui', UI], { stdio: 'pipe' });
  html = fs.readFileSync(out, 'utf8');
  opened = await openInBrowser(out);
  await opened.page.waitForFunction(() => (globalThis as unknown as { envgapReport?: { done: boolean } }).envgapReport?.done === true, null, { timeout: 60000 });
}, 180000);
afterAll(() => opened?.browser.close());

test('the page loads with no console error and fetches nothing: vega and vega-lite are embedded', async () => {
  expect(opened.errors).toEqual([]);
  expect(opened.requests).toEqual([]);
  expect(html).not.toMatch(/<script[^>]+src=/);
  const path = testArtefactPath('report.png');
  await opened.page.screenshot({ path, fullPage: true });
  expect(fs.statSync(path).size).toBeGreaterThan(10000);
});

test('every figure of the three protocols renders, with its drawn marks counted', async () => {
  const state = await opened.page.evaluate(() => (globalThis as unknown as { envgapReport: { figures: Record<string, number>; errors: string[] } }).envgapReport);
  expect(state.errors).toEqual([]);
  const charts = await opened.page.$$eval('[data-spec]', (els) => els.map((e) => ({ id: e.id, marks: Number(e.getAttribute('data-marks')) })));
  expect(charts.map((c) => c.id).sort()).toEqual(
    [
      'environment-gap--first-attempt-grid', 'environment-gap--repair-depth', 'environment-gap--success-by-language',
      'environment-gap--mismatch-by-language', 'environment-gap--inflation', 'environment-gap--cross-agent-jaccard',
      'environment-gap--success-by-domain', 'readme--readme-per-type', 'readme--readme-accuracy-vs-pass',
      'readiness--readiness-funnel', 'readiness--readiness-hallucinations',
    ].sort(),
  );
  for (const c of charts) expect({ id: c.id, drawn: c.marks > 0 }).toEqual({ id: c.id, drawn: true });
  // Fig. 4 draws one cell per primary instance of the paper's data: 3 agents x 4 languages x 50 tasks.
  expect(instances).toBe(600);
  expect(state.figures['environment-gap--first-attempt-grid']).toBe(600);
  // Fig. 6: two bars per language and an error bar on each.
  expect(state.figures['environment-gap--success-by-language']).toBeGreaterThanOrEqual(8);
});

test('the paper\'s tables are there, with figures drawn from its data', async () => {
  const table4 = await opened.page.$$eval('#environment-gap--table-4-accuracy tbody tr', (rows) => rows.map((r) => r.textContent));
  expect(table4).toHaveLength(4);
  const captions = await opened.page.$$eval('.caption', (ps) => ps.map((p) => p.textContent ?? ''));
  for (const c of captions) expect(c.length).toBeGreaterThan(20);
});

test('phantoms confirmed by removal: the rates beside M3 and a row per confirmed instance, shown on the page', async () => {
  const cells = (id: string) => opened.page.$$eval(`#environment-gap--${id} tbody tr`, (rows) => rows.map((r) => Array.from((r as unknown as { children: ArrayLike<{ textContent: string | null }> }).children, (td) => td.textContent ?? '')));
  const perInstance = await cells('confirmation-instances');
  expect(perInstance).toHaveLength(CONFIRMED);
  for (const row of perInstance) {
    expect(row[4]).toBe('ran alike');
    expect(row[5]).toMatch(/^\S+ unneeded; \S+ needed \(build-failed: build: cannot find \S+\)/);
    expect(row[6]).toMatch(/^not possible: /);
    expect(row[7]).toMatch(/^\d+ of 24$/);
  }
  const rates = await cells('confirmed-rates');
  const pooled = rates.filter((r) => r[0] === 'all');
  expect(pooled.reduce((n, r) => n + Number(r[3]), 0)).toBe(CONFIRMED);
  // The rates table follows Fig. 7 (M3) on the page, and is drawn where a reader sees it.
  const order = await opened.page.$$eval('#environment-gap ~ section', (sections) => sections.map((s) => s.id || s.querySelector('[data-spec]')?.id || ''));
  expect(order.indexOf('environment-gap--confirmed-rates')).toBe(order.indexOf('environment-gap--mismatch-by-language') + 1);
  const box = await opened.page.locator('#environment-gap--confirmed-rates table').boundingBox();
  expect(box!.width).toBeGreaterThan(300);
});

// Last: the click leaves the page.
test('each instance of the grid links to its workflow in the Temporal UI, and a click follows it', async () => {
  const links = await opened.page.evaluate(() => (globalThis as unknown as { envgapReport: { links: Record<string, string[]> } }).envgapReport.links);
  const grid = links['environment-gap--first-attempt-grid'];
  expect(grid).toHaveLength(600);
  const first = `${UI}/namespaces/default/workflows/${encodeURIComponent('envgap-paper/claude/cpp/p_01/1')}`;
  expect(grid).toContain(first);
  expect(Object.keys(links)).toEqual(['environment-gap--first-attempt-grid']);
  const cell = opened.page.locator('#environment-gap--first-attempt-grid path[aria-roledescription="rect"], #environment-gap--first-attempt-grid .mark-rect path').first();
  const [request] = await Promise.all([opened.page.waitForEvent('request', { timeout: 60000 }), cell.click()]);
  expect(request.url()).toMatch(new RegExp(`^${UI}/namespaces/default/workflows/envgap-paper`));
});
