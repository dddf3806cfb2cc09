/**
 * The web console in a real browser (Debian's Chromium, every request off loopback blocked): sign
 * in with a development token, browse functions, versions and GPU specifications, roll out an
 * update and watch it live, have the gateway restarted under the page mid-rollout (the page
 * reaches the gateway through a loopback proxy, pointed at a new gateway on the same backends),
 * see a failed rollout's message, roll back, and the same with TRUSTED_DOCUMENTS=require.
 * Screenshots go to test/artifacts/; NVCF_UPDATE_DOCS_IMAGES=1 also refreshes the two in docs/images/.
 */
import { startSystem, type System } from '@nvcf/local';
import { startGateway, type RunningGateway } from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import {
  deployedHelm,
  httpClient,
  ok,
  persistedClient,
  readSpec,
  startTcpProxy,
  submit,
  waitRevision,
  type TcpProxy,
} from '@nvcf/test';
import { waitUntil } from '@nvcf/testing';
import type { Page } from 'playwright-core';
import { axeViolations, type Browsing } from '../src/browser.js';
import { openConsoleBrowser, shot, signIn } from '../src/console-page.js';

/** the simulated clusters take 1.5 s per update: long enough to see every tile UPDATING */
const slowUpdates = {
  sim: { startDelayMs: 30, updateDelayMs: 1500 },
  agentBackoff: { initialMs: 20, maxMs: 100, factor: 2 },
  revisionDeadlineMs: 120_000,
  deadlineSweepMs: 100,
};
const pageAuth = { mode: 'dev' as const, devTokens: { ...DEV_TOKENS } };

/** The tiles as the page shows them: instance id → state. */
const tiles = (page: Page) =>
  page
    .locator('.tiles .tile')
    .evaluateAll((els) =>
      Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.instance!, (e as HTMLElement).dataset.state!])),
    );

/** Every transition in the event log, oldest first. */
const logEntries = (page: Page) =>
  page
    .locator('.log li.entry')
    .evaluateAll((els) => els.map((e) => ({ ...(e as HTMLElement).dataset })).reverse()) as Promise<
    { instance: string; state: string; revision: string; target: string; cursor: string }[]
  >;

/** Records every state each tile shows, in order, from now on (a MutationObserver in the page). */
async function recordTiles(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    const note = (el: Element) => {
      const t = el as HTMLElement;
      const id = t.dataset.instance;
      const state = t.dataset.state;
      if (!id || !state) return;
      const list = (seen[id] ??= []);
      if (list.at(-1) !== state) list.push(state);
    };
    document.querySelectorAll('.tiles .tile').forEach(note);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') note(r.target as Element);
        r.addedNodes.forEach((n) => {
          if (n instanceof Element && n.matches('.tile')) note(n);
        });
      }
    }).observe(document.querySelector('.tiles')!, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
    (window as unknown as { tileStates: typeof seen }).tileStates = seen;
  });
  return () => page.evaluate(() => (window as unknown as { tileStates: Record<string, string[]> }).tileStates);
}

/** Types a configuration into the editor and submits it through the confirmation dialog. */
async function submitConfiguration(page: Page, yaml: string) {
  await page.getByLabel('Helm values (YAML or JSON)').fill(yaml);
  await page.getByRole('button', { name: 'Submit update…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit this configuration?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Submit update' }).click();
  await dialog.waitFor({ state: 'hidden' });
  // the mutation's answer: the new revision, or the refusal next to the editor
  await page.locator('.outcome:has-text("submitted"), .editor-errors .server-error').first().waitFor();
}

/** Waits until the bar reads `n`/`n` (100 %) and every tile is ACTIVE on `revisionId`. */
async function waitDone(page: Page, instanceIds: string[], revisionId: string) {
  await waitUntil(
    async () =>
      (await page.locator('#progress-text').innerText()).includes(
        `${instanceIds.length}/${instanceIds.length} applied (100 %)`,
      ),
    { what: 'the bar at 100 %', timeoutMs: 30_000 },
  );
  await waitUntil(
    async () => {
      const shown = await tiles(page);
      return (
        instanceIds.every((id) => shown[id] === 'ACTIVE') &&
        (await page.locator(`.tiles .tile[data-state="ACTIVE"] code[title="${revisionId}"]`).count()) ===
          instanceIds.length
      );
    },
    { what: 'every tile ACTIVE on the new revision', timeoutMs: 30_000 },
  );
}

/** Each instance's UPDATING towards `revisionId` and its ACTIVE on it: each exactly once in the log. */
async function expectEachTransitionOnce(page: Page, instanceIds: string[], revisionId: string) {
  const entries = await logEntries(page);
  for (const id of instanceIds) {
    const mine = entries.filter((e) => e.instance === id);
    expect(mine.filter((e) => e.state === 'UPDATING' && e.target === revisionId)).toHaveLength(1);
    expect(mine.filter((e) => e.state === 'ACTIVE' && e.revision === revisionId)).toHaveLength(1);
  }
  expect(new Set(entries.map((e) => e.cursor)).size).toBe(entries.length);
}

const signInAsA = (page: Page, base: string) => signIn(page, base, 'nca-a');

/** From the function list to the rollout view of its only GPU specification. */
async function openRollout(page: Page, fnName: string, instanceIds: string[]) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Functions' }).click();
  await page.getByRole('link', { name: fnName }).click();
  await page.getByRole('heading', { name: fnName, level: 1 }).waitFor();
  await page
    .getByRole('link', { name: /Rollout view/ })
    .first()
    .click();
  await page.locator('#connection', { hasText: 'Live' }).waitFor();
  await waitUntil(
    async () => {
      const shown = await tiles(page);
      return instanceIds.every((id) => shown[id] === 'ACTIVE');
    },
    { what: 'a tile per instance, ACTIVE' },
  );
}

let browsing: Browsing;
beforeAll(async () => {
  browsing = await openConsoleBrowser();
}, 180_000);
afterAll(async () => {
  await browsing?.close();
});

describe('the web console in Chromium, offline', () => {
  let system: System;
  let second: RunningGateway | undefined;
  let proxy: TcpProxy;
  let page: Page;
  let base: string;
  let d: Awaited<ReturnType<typeof deployedHelm>>;
  let fnName: string;
  const api = () => httpClient(`${base}/graphql`, 'dev-token-a');

  beforeAll(async () => {
    system = await startSystem({ ...slowUpdates, graphiql: true, console: true });
    const gw = new URL(system.gateway.url);
    // the page's one address: a restarted gateway is put behind it
    proxy = await startTcpProxy({ host: gw.hostname, port: Number(gw.port) });
    base = `http://${proxy.address}`;
    page = await browsing.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    d = await deployedHelm(api(), { minInstances: 4, maxInstances: 4 });
    const spec = await readSpec(api(), d.specId);
    fnName = spec!.deployment.functionVersion.function.name;
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await proxy?.cut();
    await second?.dispose();
    await system?.dispose();
  });

  it('signs in with a development token (kept in sessionStorage) and lists functions, versions and GPU specifications with their revisions', async () => {
    await page.goto(`${base}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // a wrong token is refused with the registry's code, and nothing is stored
    await page.getByLabel('Bearer token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'UNAUTHENTICATED' }).waitFor();
    await shot(browsing, page, 'console-sign-in');
    // the browser logs the refused request itself
    expect(browsing.problems.splice(0)).toEqual([expect.stringContaining('status of 401 (Unauthorized)')]);

    await page.getByRole('button', { name: /Sign in as nca-a/ }).click();
    await page.getByRole('heading', { name: 'Functions', level: 1 }).waitFor();
    expect(
      await page.evaluate(() => [
        sessionStorage.getItem('nvcf-console:token'),
        Object.keys(localStorage).filter((k) => k.startsWith('nvcf-console')),
      ]),
    ).toEqual(['dev-token-a', []]);
    await page.getByRole('link', { name: fnName }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: fnName }).click();
    await page.getByRole('heading', { name: fnName, level: 1 }).waitFor();
    const row = page.locator('table.grid tbody tr').first();
    await waitUntil(async () => (await row.innerText()).includes('APPLIED'), {
      what: 'the spec row with its latest revision',
    });
    expect(await row.locator(`code[title="${d.firstRevisionId}"]`).count()).toBe(2); // latest and last applied
    expect(await row.innerText()).toContain('4/4');
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-function');

    // sign-out clears the token; a reload shows the sign-in page again
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('nvcf-console:token'))).toBeNull();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it('rolls out an update live: every tile UPDATING then ACTIVE, the bar to 100 %, each transition once in the log', async () => {
    await signInAsA(page, base);
    await openRollout(page, fnName, d.instanceIds);
    expect(await page.locator('#progress-text').innerText()).toContain('4/4 applied (100 %)');
    expect(await axeViolations(page)).toEqual([]);
    const states = await recordTiles(page);

    await submitConfiguration(page, 'model: v2\nreplicas: 2\n');
    const rev = (await readSpec(api(), d.specId))!.latestRevision!.id;
    await waitUntil(async () => Object.values(await tiles(page)).filter((s) => s === 'UPDATING').length === 4, {
      what: 'every tile UPDATING',
    });
    await waitUntil(async () => /^\d+:\d\d left to the deadline$/.test(await page.locator('#time-left').innerText()), {
      what: 'the time left to the deadline',
    });
    expect(await page.locator('.tiles .tile[data-state="UPDATING"]').first().innerText()).toContain('→');
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-rollout-mid', 'console-rollout-mid.png');

    await waitDone(page, d.instanceIds, rev);
    await shot(browsing, page, 'console-rollout-done', 'console-rollout-done.png');
    const seen = await states();
    for (const id of d.instanceIds) expect(seen[id]).toEqual(['ACTIVE', 'UPDATING', 'ACTIVE']);
    await expectEachTransitionOnce(page, d.instanceIds, rev);
    expect(await page.locator('.outcome').innerText()).toContain(`Revision ${rev.slice(0, 8)} submitted`);
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it("shows parse errors at their line before sending, and the server's refusal at the line of the field it names", async () => {
    const editor = page.getByLabel('Helm values (YAML or JSON)');
    await editor.fill('model: v3\nreplicas: 1\nmodel: v4\n');
    await page.locator('.editor-errors li[data-line="3"]', { hasText: 'Map keys must be unique' }).waitFor();
    expect(await page.locator('.gutter [data-error-line="3"]').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Submit update…' }).isDisabled()).toBe(true);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');

    const before = (await readSpec(api(), d.specId))!.latestRevision!.id;
    await submitConfiguration(page, 'model: v3\nreplicas: 1\nserviceName: other\n');
    const refusal = page.locator('.editor-errors .server-error');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('REDEPLOY_REQUIRED');
    expect(await refusal.getAttribute('data-line')).toBe('3');
    expect(await refusal.innerText()).toContain('configuration.serviceName');
    expect(await page.locator('.gutter [data-error-line="3"]').count()).toBe(1);
    expect((await readSpec(api(), d.specId))!.latestRevision!.id).toBe(before);
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-validation-error');

    // someone else updates meanwhile: the page's edit names the revision it started from, and is refused
    ok(await submit(api(), d.specId, { model: 'elsewhere', replicas: 1 }));
    await waitRevision(api(), d.specId, 'APPLIED');
    await submitConfiguration(page, 'model: v3\nreplicas: 1\n');
    expect(await page.locator('.editor-errors .server-error').getAttribute('data-code')).toBe('CONFLICT');
    expect((await readSpec(api(), d.specId))!.latestRevision!.configuration).toEqual({
      model: 'elsewhere',
      replicas: 1,
    });
    await page.getByRole('button', { name: 'load it' }).click();
    expect(await page.getByLabel('Helm values (YAML or JSON)').inputValue()).toContain('model: elsewhere');
    expect(browsing.problems).toEqual([]);
  });

  it('resumes after the gateway restarts mid-rollout: shows it is reconnecting, then every transition, none missed or repeated', async () => {
    await page.getByRole('button', { name: 'Reset editor' }).click();
    await submitConfiguration(page, 'model: v4\nreplicas: 2\nnvcfSimulate:\n  delayMs: 2500\n');
    const rev = (await readSpec(api(), d.specId))!.latestRevision!.id;
    await waitUntil(
      async () => (await logEntries(page)).filter((e) => e.state === 'UPDATING' && e.target === rev).length === 4,
      { what: 'the rollout under way on the page' },
    );
    const problemsBefore = browsing.problems.length;

    // the gateway goes away: its streams end without `complete`, new connections find nothing behind the proxy
    await system.gateway.dispose();
    await page.locator('#connection', { hasText: 'Reconnecting…' }).waitFor();
    await shot(browsing, page, 'console-rollout-reconnecting');
    // the instances finish while no gateway serves the page: the page must get those events on resume
    await waitUntil(
      async () => (await system.backends.nvcfStore.getRevisions([d.specId]))[0]?.latest?.status === 'APPLIED',
      { what: "the rollout applied behind the page's back", timeoutMs: 30_000 },
    );
    expect((await logEntries(page)).filter((e) => e.state === 'ACTIVE' && e.revision === rev)).toHaveLength(0);

    second = await startGateway({
      subgraphs: system.subgraphs,
      verify: staticTokens(DEV_TOKENS),
      secret: system.secret,
      cursorSecret: system.secret,
      bus: system.backends.bus,
      console: true,
      graphiql: true,
      pageAuth,
    });
    const url = new URL(second.url);
    proxy.retarget({ host: url.hostname, port: Number(url.port) });

    await page.locator('#connection', { hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await waitDone(page, d.instanceIds, rev);
    await expectEachTransitionOnce(page, d.instanceIds, rev);
    const notes = await page.locator('.log li.note').allInnerTexts();
    expect(notes.some((n) => n.includes('connection lost'))).toBe(true);
    expect(notes.some((n) => n.includes('reconnected: resumed after the last event received'))).toBe(true);
    await shot(browsing, page, 'console-rollout-resumed');
    expect(browsing.blocked).toEqual([]);
    // only the requests the browser sent while no gateway was there
    expect(browsing.problems.slice(problemsBefore).filter((p) => !/Failed to load resource|net::ERR_/.test(p))).toEqual(
      [],
    );
    browsing.problems.length = problemsBefore;
  });

  it("a failed rollout shows the failing instance's message; a confirmed rollback rolls the last applied configuration out again", async () => {
    const before = (await readSpec(api(), d.specId))!.lastAppliedRevision!;
    const appliedBefore = before.id;
    await submitConfiguration(page, 'model: broken\nnvcfSimulate:\n  failure: permanent\n');
    const failed = (await readSpec(api(), d.specId))!.latestRevision!.id;
    await page.getByRole('alert').filter({ hasText: 'Rollout failed.' }).waitFor({ timeout: 20_000 });
    const message = page.locator('.tiles .tile .tile-msg', { hasText: 'values rejected by the chart' });
    await message.first().waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Rollout failed.' }).innerText()).toContain(failed);
    expect(
      await page.locator('.log li.entry .entry-msg', { hasText: 'values rejected by the chart' }).count(),
    ).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-rollout-failed');

    // the rollback: confirmed in a dialog that takes the focus, and gives it back when cancelled
    const rollback = page.getByRole('button', { name: 'Roll back…' });
    await rollback.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Roll back?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    expect(await dialog.innerText()).toContain(appliedBefore.slice(0, 8));
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Roll back…');
    await rollback.click();
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await page.locator('.outcome', { hasText: 'Rolling back' }).waitFor();
    const back = (await readSpec(api(), d.specId))!.latestRevision!;
    // a new revision carrying the configuration that was applied before the failed one
    expect([failed, appliedBefore]).not.toContain(back.id);
    expect(back.configuration).toEqual(before.configuration);
    await waitDone(page, d.instanceIds, back.id);
    expect(await page.getByLabel('Helm values (YAML or JSON)').inputValue()).toContain('model: v4');
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });
});

describe('the console with TRUSTED_DOCUMENTS=require', () => {
  let system: System;
  let page: Page;

  beforeAll(async () => {
    system = await startSystem({
      ...slowUpdates,
      sim: { startDelayMs: 30, updateDelayMs: 400 },
      console: true,
      trustedDocuments: 'require',
    });
    page = await browsing.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await system?.dispose();
  });

  it('signs in, browses and rolls out with trusted-document ids only', async () => {
    // the gateway refuses any document text: only the ids the client ships run
    const adhoc = (await (
      await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
        body: JSON.stringify({ query: '{ functions { id } }' }),
      })
    ).json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(adhoc.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_REQUIRED');

    const a = persistedClient(system.url, 'dev-token-a');
    const d = await deployedHelm(a, { minInstances: 2, maxInstances: 2 });
    const name = (await readSpec(a, d.specId))!.deployment.functionVersion.function.name;
    await signInAsA(page, system.gateway.url);
    await openRollout(page, name, d.instanceIds);
    await submitConfiguration(page, 'model: trusted\n');
    const rev = (await readSpec(a, d.specId))!.latestRevision!.id;
    await waitDone(page, d.instanceIds, rev);
    await expectEachTransitionOnce(page, d.instanceIds, rev);
    await shot(browsing, page, 'console-trusted-documents');
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });
});
