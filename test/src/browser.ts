/**
 * A real browser for the web tests: Debian's Chromium (test/services/chromium.ts installs it)
 * driven by playwright-core, headless, with every request off loopback blocked and recorded, so
 * a test proves its page works with no network beyond the gateway.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureChromium } from '../services/chromium.js';

/** Screenshots and traces of browser tests (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const isLocal = (url: string) => {
  const u = new URL(url);
  // data: and blob: URLs are made by the page itself and never reach a network
  return u.protocol === 'data:' || u.protocol === 'blob:' || LOOPBACK.has(u.hostname);
};

export interface Browsing extends AsyncDisposable {
  browser: Browser;
  context: BrowserContext;
  /** every request the pages tried to send off loopback (each was aborted) */
  blocked: string[];
  /** console errors, uncaught page errors and CSP violations, as the browser reported them */
  problems: string[];
  newPage(): Promise<Page>;
  /** saves a PNG of `page` under test/artifacts/ and returns its path */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browsing> {
  const { bin } = await ensureChromium();
  const args = [
    // belt and braces: a name other than localhost resolves nowhere, even from a worker or a socket the routes do not see
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1 , EXCLUDE [::1]',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-dev-shm-usage',
  ];
  // Chromium refuses to start its sandbox as root (CI containers)
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath: bin, headless: true, args });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const blocked: string[] = [];
    const problems: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (isLocal(url)) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    // also what route() does not intercept (a worker's requests): recorded once
    context.on('request', (req) => {
      if (!isLocal(req.url()) && !blocked.includes(req.url())) blocked.push(req.url());
    });
    const close = async () => {
      await browser.close();
    };
    return {
      browser,
      context,
      blocked,
      problems,
      async newPage() {
        const page = await context.newPage();
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(`console: ${m.text()}`);
        });
        page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
        return page;
      },
      async screenshot(page, name) {
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        const file = path.join(ARTIFACTS, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  // through the DevTools protocol, which the page's CSP (no inline script) does not apply to
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
