import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '@nvcf/console/build';
import { ARTIFACTS, openBrowser, type Browsing } from './browser.js';

const DOCS_IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));

/** Signs the web console in as `tenant` with its published development token, and waits for the first page. */
export async function signIn(page: Page, base: string, tenant: 'nca-a' | 'nca-b'): Promise<void> {
  await page.goto(`${base}/console/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByRole('button', { name: new RegExp(`Sign in as ${tenant}`) }).click();
  await page.getByRole('heading', { name: 'Functions', level: 1 }).waitFor();
}

/**
 * Saves the viewport (what a laptop screen shows) and the full page under test/artifacts/;
 * with NVCF_UPDATE_DOCS_IMAGES=1 the viewport also replaces docs/images/`docsName`.
 */
export async function shot(browsing: Browsing, page: Page, name: string, docsName?: string) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file }); // the viewport: what a laptop screen shows
  await browsing.screenshot(page, `${name}-full`);
  // a test run never changes tracked files: NVCF_UPDATE_DOCS_IMAGES=1 refreshes the documentation's copies
  if (docsName && process.env.NVCF_UPDATE_DOCS_IMAGES === '1') {
    fs.mkdirSync(DOCS_IMAGES, { recursive: true });
    fs.copyFileSync(file, path.join(DOCS_IMAGES, docsName));
  }
}

/** The web pages built (once per tree) and Chromium open, for a file of browser tests. */
export async function openConsoleBrowser(): Promise<Browsing> {
  const [web, browser] = await Promise.all([
    ensureWebBuild({ log: (t) => process.stderr.write(`${t}\n`) }),
    openBrowser(),
  ]);
  if (web.built) process.stderr.write(`web build: ${web.ms} ms\n`);
  return browser;
}
