/**
 * The GraphQL IDE in a real browser (Debian's Chromium, installed on first use), with every
 * request off loopback blocked: it loads from the gateway alone, opens with the development
 * token, runs the example query, and its status subscription takes the gateway's own status path.
 */
import { startSystem, type System } from '@nvcf/local';
import { ensureWebBuild } from '@nvcf/console/build';
import { deployedHelm, gauge, httpClient, watchSubscriptions } from '@nvcf/test';
import { waitUntil } from '@nvcf/testing';
import type { Page } from 'playwright-core';
import { openBrowser, type Browsing } from '../src/browser.js';
import { fast } from './suites/system.js';

/** what monaco shows of an editor (its visible lines; it renders spaces as no-break spaces) */
const text = async (page: Page, selector: string) =>
  (await page.locator(selector).first().innerText()).replace(/\u00a0/g, ' ');
/** monaco lays an editor out over a few frames after a tab switch: wait until it shows `wanted` */
const shows = (page: Page, selector: string, wanted: string) =>
  waitUntil(async () => (await text(page, selector)).includes(wanted), { what: `${selector} to show ${wanted}` });

describe('GraphQL IDE in Chromium, offline', () => {
  let system: System;
  let browsing: Browsing;
  let page: Page;
  const a = () => httpClient(system.url, 'dev-token-a');

  beforeAll(async () => {
    // the browser starts (and is installed, on a first run) while Vite builds
    const [web, browser] = await Promise.all([
      ensureWebBuild({ log: (t) => process.stderr.write(`${t}\n`) }),
      openBrowser(),
    ]);
    browsing = browser;
    if (web.built) process.stderr.write(`web build: ${web.ms} ms\n`);
    system = await startSystem({ ...fast, graphiql: true, console: true });
    page = await browsing.newPage();
  }, 180_000);
  afterAll(async () => {
    await browsing?.close();
    await system?.dispose();
  });
  afterEach(async () => {
    const name =
      expect
        .getState()
        .currentTestName?.replace(/[^a-z0-9]+/gi, '-')
        .toLowerCase() ?? 'ide';
    if (page) await browsing.screenshot(page, `ide-${name}`);
  });

  it('loads from the gateway alone, with the development token and the examples, and runs the Functions query', async () => {
    const { functionId } = await deployedHelm(a());
    await page.goto(`${system.gateway.url}/graphql`);
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
    expect(await page.locator('.graphiql-tab').allInnerTexts()).toEqual(['Functions', 'Clusters', 'InstanceStatus']);
    await shows(page, '.graphiql-editor-tool', '"Authorization": "Bearer dev-token-a"');

    await page.locator('.graphiql-execute-button').click();
    await waitUntil(async () => (await text(page, '.graphiql-response')).includes(functionId), {
      what: 'the Functions result in the response pane',
    });
    expect(await text(page, '.graphiql-response')).toContain('"functions"');
    // the schema was read (docs, completion): the IDE's first request carried the token too
    await page.locator('.graphiql-sidebar button[aria-label*="Documentation"]').click();
    await page.locator('.graphiql-doc-explorer-root-type').first().waitFor();

    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it('subscribes through the gateway status path: a snapshot with cursors, stopped at once', async () => {
    const { functionId } = await deployedHelm(a());
    await page.locator('.graphiql-tab', { hasText: 'InstanceStatus' }).click();
    await page.locator('.graphiql-editor-tools button[data-name="variables"]').click();
    await shows(page, '.graphiql-editor-tool', '"functionId": ""');
    // between the example's empty quotes: typing braces or quotes, monaco would close each a second time
    await page.locator('.graphiql-editor-tool .monaco-editor').first().click();
    for (const key of ['ControlOrMeta+Home', 'ArrowDown', 'End', 'ArrowLeft']) await page.keyboard.press(key);
    await page.keyboard.insertText(functionId);
    await shows(page, '.graphiql-editor-tool', `"functionId": "${functionId}"`);

    const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
    await page.locator('.graphiql-execute-button').click();
    // counted by the gateway's own StatusService: the IDE did not take another path
    await watch.opened(1);
    await waitUntil(
      async () => {
        const shown = await text(page, '.graphiql-response');
        return shown.includes('"cursor"') && shown.includes('"SNAPSHOT"');
      },
      { what: 'a status event with its cursor in the response pane' },
    );
    expect(await text(page, '.graphiql-response')).toMatch(/"cursor": "[^"]+"/);

    await page.locator('.graphiql-execute-button').click(); // Stop
    await waitUntil(
      async () => (await gauge(system.gateway.metricsUrl, 'nvcf_status_subscriptions_open', { tenant: 'nca-a' })) === 0,
      { what: 'the subscription closed on the gateway' },
    );
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it('serves the console from the same build, under the same CSP', async () => {
    await page.goto(`${system.gateway.url}/console/functions`);
    await page.getByRole('heading', { name: 'NVCF console' }).waitFor();
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });
});
