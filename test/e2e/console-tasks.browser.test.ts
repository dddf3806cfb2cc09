/**
 * Tasks in the web console, in Chromium (every request off loopback blocked), on the embedded
 * default with TRUSTED_DOCUMENTS=require, so every operation the task views send is a trusted
 * document: create a container task from the form and follow it to COMPLETED through its status
 * subscription (one read of the task, no polling), cancel a long one after confirming, see
 * TASK_ENDED explained when the task ended before the click, create a Helm task and an operator
 * task, page through the list, and find none of tenant A's tasks as tenant B.
 */
import {
  CreateTaskDocument,
  CancelTaskDocument,
  TaskDocument,
  TasksDocument,
  createClient,
  type CreateTaskInput,
  type NvcfClient,
} from '@nvcf/client';
import { startSystem, type System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import type { Page, Request, Route } from 'playwright-core';
import { axeViolations, type Browsing } from '../src/browser.js';
import { openConsoleBrowser, shot, signIn } from '../src/console-page.js';
import { gauge } from '../src/metrics.js';

const input = (name: string, runMs?: number): CreateTaskInput => ({
  name,
  container: { image: 'nvcr.io/nca-a/eval:1' },
  gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge' },
  ...(runMs ? { configuration: { nvcfSimulate: { runMs } } } : {}),
});

/** The transitions the task view lists, oldest first. */
const eventStatuses = (page: Page) =>
  page.locator('table.task-events tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.status));

/** The status badge next to the task's name. */
const shownStatus = (page: Page) => page.locator('h1 .badge').innerText();

/** The operation a request to /graphql sends (by trusted-document id), and its variables. */
const operationOf = (req: Request) => {
  const body: unknown = req.method() === 'POST' && req.url().endsWith('/graphql') ? req.postDataJSON() : null;
  return (body ?? {}) as { operationName?: string; variables?: Record<string, unknown> };
};

/** The page's reads of one task (`Task`, with the task's id). */
const isTaskRead = (req: Request, id: string) => {
  const op = operationOf(req);
  return op.operationName === 'Task' && op.variables?.id === id;
};

/** The page's subscriptions to one task's transitions (`TaskStatusChanged` over SSE, with its id). */
const isTaskSubscription = (req: Request, id: string) => {
  const op = operationOf(req);
  return op.operationName === 'TaskStatusChanged' && op.variables?.taskId === id;
};

/** The operations the page sends from now on, to count its reads and subscriptions of a task. */
function recordRequests(page: Page) {
  const sent: Request[] = [];
  const on = (req: Request) => void sent.push(req);
  page.on('request', on);
  return {
    reads: (id: string) => sent.filter((r) => isTaskRead(r, id)).length,
    subscriptions: (id: string) => sent.filter((r) => isTaskSubscription(r, id)).length,
    stop: () => page.off('request', on),
  };
}

/**
 * Every status the task's badge shows from now on, in order, as the page changes it: installed
 * in the page, so a transition shown only briefly is still seen. The page must not reload.
 */
async function recordShownStatuses(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { shownStatuses: string[] };
    w.shownStatuses = [];
    const look = () => {
      const s = document.querySelector('h1 .badge')?.textContent ?? null;
      if (s && w.shownStatuses.at(-1) !== s) w.shownStatuses.push(s);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { shownStatuses: string[] }).shownStatuses);
}

/** Open `taskStatusChanged` subscriptions of tenant A on the gateway (`metricsUrl`: its metrics port). */
const openTaskSubscriptions = (metricsUrl: string) =>
  gauge(metricsUrl, 'nvcf_task_status_subscriptions_open', { tenant: 'nca-a' });

let browsing: Browsing;
beforeAll(async () => {
  browsing = await openConsoleBrowser();
}, 180_000);
afterAll(async () => {
  await browsing?.close();
});

describe('tasks in the web console, in Chromium', () => {
  let system: System;
  let page: Page;
  let base: string;
  let a: NvcfClient;
  const created: string[] = [];

  beforeAll(async () => {
    system = await startSystem({
      sim: { startDelayMs: 20, updateDelayMs: 20 },
      agentBackoff: { initialMs: 20, maxMs: 100, factor: 2 },
      deadlineSweepMs: 100,
      console: true,
      trustedDocuments: 'require',
    });
    base = system.gateway.url;
    a = createClient({ url: system.url, token: 'dev-token-a' });
    page = await browsing.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await system?.dispose();
  });

  it('creates a container task from the form (a bad duration refused at its field), lists it, and follows it to COMPLETED through its subscription', async () => {
    await signIn(page, base, 'nca-a');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    await page.getByText('No tasks yet for this tenant.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByRole('heading', { name: 'New task', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('eval-ui');
    await page.getByLabel('Image', { exact: true }).fill('nvcr.io/nca-a/eval:1');
    // the choices come from the clusters: cluster-a and cluster-b both offer L40S
    await waitUntil(async () => (await page.getByLabel('GPU').locator('option').allInnerTexts()).includes('L40S'), {
      what: "the clusters' GPUs in the form",
    });
    await page.getByLabel('GPU').selectOption('L40S');
    await page.getByLabel('Instance type').selectOption('gl40s_1.br25_2xlarge');
    await page.getByLabel('Max runtime').fill('P1Y');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create task' }).click();
    const refusal = page.locator('.server-error[role="alert"]');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('INVALID_DURATION');
    expect(await refusal.innerText()).toContain('maxRuntimeDuration');
    expect(await page.getByLabel('Max runtime').getAttribute('aria-invalid')).toBe('true');
    await shot(browsing, page, 'console-task-create-refused');

    await page.getByLabel('Max runtime').fill('PT1H');
    const requests = recordRequests(page);
    const shownStatuses = await recordShownStatuses(page);
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('heading', { name: /eval-ui/, level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    created.push(id);
    const stored = (await a.query(TaskDocument, { id })).task;
    expect(stored).toMatchObject({
      name: 'eval-ui',
      gpu: 'L40S',
      maxRuntimeDuration: 'PT1H',
      workloadType: 'CONTAINER',
    });

    // the page follows the task until it ends, then says there is nothing more to follow
    await page.locator('#task-live', { hasText: 'Ended: no more updates' }).waitFor({ timeout: 20_000 });
    expect(await shownStatus(page)).toBe('COMPLETED');
    expect(await eventStatuses(page)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    const times = await page
      .locator('table.task-events tbody time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    expect(times).toEqual((await a.query(TaskDocument, { id })).task?.events.map((e) => e.at));
    // the badge moved forwards only, and showed RUNNING while the task ran (a second): transitions
    // closer together than a render, or before the first read, may not each have shown in it
    const lifecycle = ['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED'];
    const shown = await shownStatuses();
    expect(shown.filter((s) => lifecycle.includes(s))).toEqual(shown);
    expect([...shown].sort((x, y) => lifecycle.indexOf(x) - lifecycle.indexOf(y))).toEqual(shown);
    expect(shown).toContain('RUNNING');
    expect(shown.at(-1)).toBe('COMPLETED');
    // one read of the task, then the subscription told the rest: no polling. A second read is
    // made only when the task moved between the first and the subscription's snapshot
    expect(requests.reads(id)).toBeGreaterThanOrEqual(1);
    expect(requests.reads(id)).toBeLessThanOrEqual(2);
    expect(requests.subscriptions(id)).toBe(1);
    requests.stop();
    await waitUntil(async () => (await openTaskSubscriptions(system.gateway.metricsUrl)) === 0, {
      what: 'the page closing its subscription once the task ended',
    });
    expect(await page.getByRole('button', { name: 'Cancel task…' }).isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-task-completed', 'console-task-completed.png');

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Tasks' }).click();
    const row = page.locator(`table.tasks tbody tr[data-task="${id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('COMPLETED');
    expect(await row.innerText()).toContain('eval-ui');
    expect(await axeViolations(page)).toEqual([]);
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it('cancels a long-running task after confirming: it ends CANCELED and is no longer followed', async () => {
    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByLabel('Name').fill('long-ui');
    await page.getByLabel('Image', { exact: true }).fill('nvcr.io/nca-a/eval:1');
    await page.getByLabel(/^Configuration/).fill('nvcfSimulate:\n  runMs: 600000\n');
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('heading', { name: /long-ui/, level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    created.push(id);
    await waitUntil(async () => (await shownStatus(page)) === 'RUNNING', { what: 'the task RUNNING on the page' });
    expect(await page.locator('#task-live').innerText()).toBe('Live');
    expect(await openTaskSubscriptions(system.gateway.metricsUrl)).toBe(1);
    // from here on the page is told, not asking: no read of the task while it runs, nor after it ends
    const requests = recordRequests(page);

    const cancel = page.getByRole('button', { name: 'Cancel task…' });
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this task?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-task-cancel-dialog');
    // dismissing changes nothing
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await a.query(TaskDocument, { id })).task?.status).toBe('RUNNING');
    await cancel.click();
    await dialog.getByRole('button', { name: 'Cancel task', exact: true }).click();

    await waitUntil(async () => (await shownStatus(page)) === 'CANCELED', { what: 'the task CANCELED on the page' });
    expect((await eventStatuses(page)).at(-1)).toBe('CANCELED');
    expect(await cancel.isDisabled()).toBe(true);
    expect((await a.query(TaskDocument, { id })).task?.status).toBe('CANCELED');
    await page.locator('#task-live', { hasText: 'Ended: no more updates' }).waitFor({ timeout: 10_000 });
    // the task ended: the page closed its subscription, and opened no other
    await waitUntil(async () => (await openTaskSubscriptions(system.gateway.metricsUrl)) === 0, {
      what: 'the subscription closed',
    });
    requests.stop();
    expect(requests.reads(id)).toBe(0);
    expect(requests.subscriptions(id)).toBe(0);
    expect(browsing.problems).toEqual([]);
  });

  it('explains TASK_ENDED when the task ended before the click reached it', async () => {
    const { createTask } = await a.mutate(CreateTaskDocument, { input: input('ends-elsewhere', 600_000) });
    created.push(createTask.id);
    await waitUntil(async () => (await a.query(TaskDocument, { id: createTask.id })).task?.status === 'RUNNING', {
      what: 'the task RUNNING',
    });
    // the page's subscription is held, so it still shows RUNNING when the task is canceled elsewhere
    const held: Route[] = [];
    await page.route('**/graphql', (route) =>
      isTaskSubscription(route.request(), createTask.id) ? void held.push(route) : route.fallback(),
    );
    await page.goto(`${base}/console/tasks/${createTask.id}`);
    await waitUntil(async () => (await shownStatus(page)) === 'RUNNING', { what: 'the task RUNNING on the page' });
    await waitUntil(() => held.length === 1, { what: "the page's subscription to the task, held" });
    expect(await page.locator('#task-live').innerText()).toBe('Connecting…');
    await a.mutate(CancelTaskDocument, { id: createTask.id });
    expect(await shownStatus(page)).toBe('RUNNING');
    await page.getByRole('button', { name: 'Cancel task…' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel this task?' })
      .getByRole('button', { name: 'Cancel task', exact: true })
      .click();
    const alert = page.locator('#cancel-error[role="alert"]');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      /^The task had already ended, so there was nothing to cancel\. TASK_ENDED: task \S+ already ended CANCELED/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-task-ended-refusal');

    // the refusal read the task again: it shows how the task ended before the subscription says anything
    await waitUntil(async () => (await shownStatus(page)) === 'CANCELED', { what: 'the task CANCELED on the page' });
    expect(await page.getByRole('button', { name: 'Cancel task…' }).isDisabled()).toBe(true);
    await Promise.all(held.splice(0).map((r) => r.continue()));
    await page.unroute('**/graphql');
    await page.locator('#task-live', { hasText: 'Ended: no more updates' }).waitFor();
    expect(browsing.problems).toEqual([]);
  });

  it('creates an operator task from manifests: a manifest off its types is refused at its line, then it runs to COMPLETED', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByLabel('Name').fill('warmup-ui');
    await page.getByRole('radio', { name: 'Operator manifests' }).check();
    // the types come from the operator registry
    await page.getByRole('checkbox', { name: /^nim/ }).check();
    await page.getByLabel('GPU').selectOption('L40S');
    await page.getByLabel(/^Configuration/).fill('nvcfSimulate:\n  runMs: 50\n');
    const nim = [
      '- apiVersion: apps.nvidia.com/v1alpha1',
      '  kind: NIMService',
      '  metadata: { name: warmup }',
      '  spec: { image: { repository: nvcr.io/nim/llama, tag: "1.0" }, replicas: 1, expose: { service: { port: 8000 } } }',
    ];
    const dynamo = [
      '- apiVersion: nvidia.com/v1alpha1',
      '  kind: DynamoGraphDeployment',
      '  metadata: { name: graph }',
      '  spec: { services: { worker: { replicas: 1 } } }',
    ];
    const manifests = page.getByLabel(/^Manifests/);
    await manifests.fill([...nim, ...dynamo, ''].join('\n'));
    await page.getByRole('button', { name: 'Create task' }).click();
    const refusal = page.locator('.server-error[role="alert"]');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('INVALID_MANIFEST');
    expect(await refusal.innerText()).toContain("belongs to operator type 'dynamo'");
    // the second manifest starts on line 5: marked in its editor's gutter
    expect(
      await page
        .locator('.editor .gutter [data-error-line]')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.errorLine)),
    ).toEqual(['5']);
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-task-operator-refused');

    await manifests.fill([...nim, ''].join('\n'));
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('heading', { name: /warmup-ui/, level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    created.push(id);
    await page.locator('#task-live', { hasText: 'Ended: no more updates' }).waitFor({ timeout: 20_000 });
    expect(await shownStatus(page)).toBe('COMPLETED');
    expect((await a.query(TaskDocument, { id })).task).toMatchObject({ workloadType: 'OPERATOR', status: 'COMPLETED' });
    expect(browsing.problems).toEqual([]);
  });

  it('creates a Helm task from the form: a bad chart and service name refused at their fields, then it runs to COMPLETED', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByLabel('Name').fill('chart-ui');
    await page.getByRole('radio', { name: 'Helm chart' }).check();
    const chart = page.getByLabel('Chart', { exact: true });
    const service = page.getByLabel('Service name');
    const create = page.getByRole('button', { name: 'Create task' });
    await chart.fill('nvcr.io/nca-a/eval:1');
    // both are required by the API: Create waits for the service name
    expect(await create.isDisabled()).toBe(true);
    await service.fill('eval');
    await page.getByLabel('GPU').selectOption('L40S');
    await page.getByLabel(/^Configuration/).fill('nvcfSimulate:\n  runMs: 50\n');
    await create.click();
    const refusal = page.locator('.server-error[role="alert"]');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('BAD_USER_INPUT');
    expect(await refusal.innerText()).toContain('helm.chart must be an oci://…/NAME-X.Y.Z.tgz URI');
    expect(await chart.getAttribute('aria-invalid')).toBe('true');
    expect(await service.getAttribute('aria-invalid')).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-task-helm-refused');

    await chart.fill('oci://nvcr.io/nca-a/eval-1.0.0.tgz');
    await service.fill('Eval_Service');
    await create.click();
    await waitUntil(async () => (await refusal.innerText()).includes('helm.serviceName must be a DNS-1123 label'), {
      what: 'the service name refused',
    });
    expect(await service.getAttribute('aria-invalid')).toBe('true');
    expect(await chart.getAttribute('aria-invalid')).toBeNull();

    await service.fill('eval');
    await create.click();
    await page.getByRole('heading', { name: /chart-ui/, level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    created.push(id);
    await page.locator('#task-live', { hasText: 'Ended: no more updates' }).waitFor({ timeout: 20_000 });
    expect(await shownStatus(page)).toBe('COMPLETED');
    expect(await eventStatuses(page)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    expect(await page.locator('dl.facts').innerText()).toMatch(/Workload\s+HELM/i);
    expect((await a.query(TaskDocument, { id })).task).toMatchObject({ workloadType: 'HELM', status: 'COMPLETED' });
    expect(browsing.problems).toEqual([]);
  });

  it('lists a page at a time, newest first, filters by status; tenant B sees none of these tasks', async () => {
    // 21 tasks in all: one more than a page
    for (let i = created.length; i < 21; i++)
      created.push((await a.mutate(CreateTaskDocument, { input: input(`batch-${i}`) })).createTask.id);
    // newest first as the API orders them (tasks created in the same millisecond go by id)
    const newestFirst = (await a.query(TasksDocument, { first: 21 })).tasks.edges.map((e) => e.node.id);
    expect([...newestFirst].sort()).toEqual([...created].sort());

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    const rows = page.locator('table.tasks tbody tr');
    const shownIds = () => rows.evaluateAll((trs) => trs.map((r) => (r as HTMLElement).dataset.task));
    await waitUntil(async () => (await rows.count()) === 20, { what: 'a first page of 20 tasks' });
    expect(await shownIds()).toEqual(newestFirst.slice(0, 20));
    const pager = page.getByRole('navigation', { name: 'Pages of tasks' });
    expect(await pager.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Older' }).click();
    await waitUntil(async () => (await rows.count()) === 1, { what: 'the second page' });
    expect(await shownIds()).toEqual(newestFirst.slice(20));
    expect(await pager.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Newer' }).click();
    await waitUntil(async () => (await rows.count()) === 20, { what: 'the first page again' });

    await page.getByLabel('Status').selectOption('CANCELED');
    await waitUntil(async () => (await rows.count()) === 2, { what: 'the canceled tasks' });
    expect((await shownIds()).sort()).toEqual([created[1], created[2]].sort());
    expect(await axeViolations(page)).toEqual([]);
    await shot(browsing, page, 'console-tasks', 'console-tasks.png');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, base, 'nca-b');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByText('No tasks yet for this tenant.').waitFor();
    await page.goto(`${base}/console/tasks/${created[0]}`);
    await page
      .getByRole('alert')
      .filter({ hasText: `No task ${created[0]} for this tenant.` })
      .waitFor();
    expect(browsing.blocked).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });
});
