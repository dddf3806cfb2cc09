/**
 * Tasks in the web console, in Chromium (every request off loopback blocked), on the embedded
 * default with TRUSTED_DOCUMENTS=require, so every operation the task views send is a trusted
 * document: create a container task from the form and follow it to COMPLETED, cancel a long one
 * after confirming, see TASK_ENDED explained when the task ended before the click, create an
 * operator task from manifests, page through the list, and find none of tenant A's tasks as
 * tenant B.
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

/** The page's reads of one task (`Task` by trusted-document id, with the task's id). */
const isTaskRead = (req: Request, id: string) => {
  const body = req.method() === 'POST' ? req.postDataJSON() : null;
  return (body as { operationName?: string; variables?: { id?: string } } | null)?.operationName === 'Task'
    ? (body as { variables?: { id?: string } }).variables?.id === id
    : false;
};

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

  it('creates a container task from the form (a bad duration refused at its field), lists it, and follows it to COMPLETED', async () => {
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

    // the page reads the task until it ends, then says it no longer does
    await page.locator('#task-live', { hasText: 'Ended: not read again' }).waitFor({ timeout: 20_000 });
    expect(await shownStatus(page)).toBe('COMPLETED');
    expect(await eventStatuses(page)).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
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

  it('cancels a long-running task after confirming: it ends CANCELED and is not read again', async () => {
    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByLabel('Name').fill('long-ui');
    await page.getByLabel('Image', { exact: true }).fill('nvcr.io/nca-a/eval:1');
    await page.getByLabel(/^Configuration/).fill('nvcfSimulate:\n  runMs: 600000\n');
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('heading', { name: /long-ui/, level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    created.push(id);
    await waitUntil(async () => (await shownStatus(page)) === 'RUNNING', { what: 'the task RUNNING on the page' });
    expect(await page.locator('#task-live').innerText()).toContain('Live');

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
    await page.locator('#task-live', { hasText: 'Ended: not read again' }).waitFor({ timeout: 10_000 });
    // it stopped reading: no read of the task over more than two of its intervals (2 s each)
    const reads: string[] = [];
    const onRequest = (req: Request) => {
      if (isTaskRead(req, id)) reads.push(req.url());
    };
    page.on('request', onRequest);
    await page.waitForTimeout(5000);
    page.off('request', onRequest);
    expect(reads).toEqual([]);
    expect(browsing.problems).toEqual([]);
  });

  it('explains TASK_ENDED when the task ended before the click reached it', async () => {
    const { createTask } = await a.mutate(CreateTaskDocument, { input: input('ends-elsewhere', 600_000) });
    created.push(createTask.id);
    await page.goto(`${base}/console/tasks/${createTask.id}`);
    await waitUntil(async () => (await shownStatus(page)) === 'RUNNING', { what: 'the task RUNNING on the page' });

    // the page's reads of the task are held, so it still shows RUNNING when it is canceled elsewhere
    const held: Route[] = [];
    await page.route('**/graphql', (route) =>
      isTaskRead(route.request(), createTask.id) ? void held.push(route) : route.fallback(),
    );
    // once one read is held no other is under way: the page reads one at a time
    await waitUntil(() => held.length === 1, { what: "the page's next read of the task, held" });
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

    await Promise.all(held.splice(0).map((r) => r.continue()));
    await page.unroute('**/graphql');
    await waitUntil(async () => (await shownStatus(page)) === 'CANCELED', { what: 'the task CANCELED on the page' });
    expect(await page.getByRole('button', { name: 'Cancel task…' }).isDisabled()).toBe(true);
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
    await page.locator('#task-live', { hasText: 'Ended: not read again' }).waitFor({ timeout: 20_000 });
    expect(await shownStatus(page)).toBe('COMPLETED');
    expect((await a.query(TaskDocument, { id })).task).toMatchObject({ workloadType: 'OPERATOR', status: 'COMPLETED' });
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
