import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (scripts/ensure-chromium.sh), or the browser ENVGAP_CHROMIUM names. */
export function chromiumPath(): string {
  const exe = process.env.ENVGAP_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(exe)) throw new Error(`no browser at ${exe}: run scripts/ensure-chromium.sh (or set ENVGAP_CHROMIUM)`);
  return exe;
}

export interface OpenedPage {
  browser: Browser;
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** Every request that was not for a local file: a self-contained page makes none. */
  requests: string[];
}

/** A local HTML file in a real headless Chromium, with what it logged and fetched recorded. */
export async function openInBrowser(file: string): Promise<OpenedPage> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) requests.push(r.url());
  });
  await page.goto(`file://${path.resolve(file)}`);
  return { browser, page, errors, requests };
}

/** Where a test keeps what a person may want to look at afterwards (screenshots): $ENVGAP_STATE/test-artefacts. */
export function testArtefactPath(name: string): string {
  const dir = path.join(process.env.ENVGAP_STATE ?? path.join(process.env.HOME ?? '/tmp', '.cache/envgap/state'), 'test-artefacts');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
