import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSystem, type System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import { EXIT } from '@nvcf/cli';
import { fast } from './suites/system.js';
import { cliAgainst } from '../src/cli.js';
import { cliTasksSuite } from './suites/cli-tasks.suite.js';

interface Task {
  id: string;
  name: string;
  status: string;
  workloadType: string;
  message: string | null;
  endedAt: string | null;
  maxQueuedDuration: string;
  maxRuntimeDuration: string;
  events: { cursor: string; status: string; message: string | null }[];
}
type Item = { type: string; task?: Task; status?: string; taskId?: string; cursor?: string };

const files = mkdtempSync(join(tmpdir(), 'nvcf-cli-tasks-'));
writeFileSync(
  join(files, 'graph.yaml'),
  [
    'apiVersion: apps.nvidia.com/v1alpha1',
    'kind: NIMService',
    'metadata: { name: warmup }',
    'spec: { image: { repository: nvcr.io/nim/llama, tag: "1.0" }, replicas: 1, expose: { service: { port: 8000 } } }',
    '',
  ].join('\n'),
);

const PLACEABLE = ['--gpu', 'L40S', '--instance-type', 'gl40s_1.br25_2xlarge'];
// pinned to a cluster that does not exist: no agent takes it, so it stays QUEUED until it is ended
const GPU = [...PLACEABLE, '--cluster', 'parked'];

/**
 * `nvcf tasks` against the embedded system, in-process through run(argv, io). The gateway runs
 * trusted documents only (TRUSTED_DOCUMENTS=require): a tasks operation missing from the manifest
 * fails every test that sends it, instead of falling back to its text.
 */
describe('nvcf tasks against the embedded system', () => {
  let system: System;
  let cli: ReturnType<typeof cliAgainst>;
  const nvcf = (argv: string[], opts?: Parameters<typeof cli.nvcf>[1]) => cli.nvcf(argv, { cwd: files, ...opts });
  /** a container task, parked: no cluster takes it (the suite below runs tasks on the simulated clusters) */
  const container = (name: string, ...more: string[]) =>
    nvcf(['tasks', 'create', name, '--container-image', 'nvcr.io/nca-a/eval:1', ...GPU, ...more]);

  beforeAll(async () => {
    system = await startSystem({ ...fast, trustedDocuments: 'require' });
    cli = cliAgainst(system.url);
  });
  afterAll(async () => system?.dispose());

  it('create (container) in every format, get, list; cancel; a second cancel is TASK_ENDED', async () => {
    const created = await container(
      'eval',
      '--arg',
      'train',
      '--arg',
      '10',
      '--env',
      'A=1',
      '--max-runtime',
      'PT1H',
      '-o',
      'json',
    );
    expect(created.code).toBe(EXIT.ok);
    const t = created.json<Task>();
    expect(t).toMatchObject({ name: 'eval', status: 'QUEUED', workloadType: 'CONTAINER', maxRuntimeDuration: 'PT1H' });
    expect(t.events.map((e) => e.status)).toEqual(['QUEUED']);

    const id = (await container('eval-2', '-o', 'id')).out;
    expect(id).toMatch(/^\S+\n$/);
    const table = await container('eval-3', '--max-queued', 'PT2H');
    expect(table.out).toMatch(/^Status:\s+QUEUED$/m);
    expect(table.out).toMatch(/^Max queued:\s+PT2H$/m);

    const got = await nvcf(['tasks', 'get', t.id]);
    expect(got.code).toBe(EXIT.ok);
    expect(got.out).toMatch(new RegExp(`^ID:\\s+${t.id}$`, 'm'));
    expect(got.out).toMatch(/^\S+Z\s+QUEUED/m);
    expect((await nvcf(['tasks', 'get', t.id, '-o', 'yaml'])).out).toContain(`id: ${t.id}`);

    const listed = await nvcf(['tasks', 'list', '-o', 'json']);
    expect(listed.json<Task[]>().map((x) => x.id)).toEqual(expect.arrayContaining([t.id, id.trim()]));
    const page = await nvcf(['tasks', 'list', '--limit', '1']);
    expect(page.out).toMatch(/^\(more: nvcf tasks list --after \S+\)$/m);
    const after = /--after (\S+)\)/.exec(page.out)![1];
    const next = (await nvcf(['tasks', 'list', '--limit', '1', '--after', after, '-o', 'id'])).out.trim();
    expect(page.out).not.toContain(next);

    const canceled = await nvcf(['tasks', 'cancel', t.id]);
    expect(canceled).toMatchObject({ code: EXIT.ok, out: `task ${t.id} CANCELED\n` });
    expect((await nvcf(['tasks', 'list', '--status', 'canceled', '-o', 'id'])).out.split('\n')).toContain(t.id);
    expect((await nvcf(['tasks', 'list', '--status', 'QUEUED', '-o', 'id'])).out.split('\n')).not.toContain(t.id);
    const again = await nvcf(['tasks', 'cancel', t.id]);
    expect(again.code).toBe(EXIT.api);
    expect(again.err).toMatch(/^error: TASK_ENDED: /);
  });

  it('watch prints each transition once and exits 1 when the task is cancelled from another call', async () => {
    const id = (await container('to-cancel', '-o', 'id')).out.trim();
    const watching = cli.start(['tasks', 'watch', id, '--interval', '50'], { cwd: files });
    await waitUntil(() => watching.io.out.includes('QUEUED'), { what: 'the first transition' });
    expect((await nvcf(['tasks', 'cancel', id])).code).toBe(EXIT.ok);
    const r = await watching.done;
    expect(r.code).toBe(EXIT.taskNotCompleted);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\S+Z ${id} QUEUED`));
    expect(lines[1]).toMatch(new RegExp(`^\\S+Z ${id} CANCELED`));
    expect(r.err).toMatch(new RegExp(`^task ${id} ended CANCELED`));
    // a task that already ended: its transitions at once, and the same exit code
    const ended = await nvcf(['tasks', 'watch', id, '-o', 'json']);
    expect(ended.code).toBe(EXIT.taskNotCompleted);
    expect(ended.lines<Item>().map((e) => [e.type, e.taskId, e.status])).toEqual([
      ['event', id, 'QUEUED'],
      ['event', id, 'CANCELED'],
    ]);
  });

  it('create --watch -o json: the task, then its transitions, until it passes --max-queued (exit 1)', async () => {
    const r = await container('short', '--max-queued', 'PT1S', '--watch', '--interval', '100', '-o', 'json');
    expect(r.code).toBe(EXIT.taskNotCompleted);
    const items = r.lines<Item>();
    expect(items[0]).toMatchObject({ type: 'created', task: { name: 'short', status: 'QUEUED' } });
    expect(items.slice(1).map((e) => e.status)).toEqual(['QUEUED', 'EXCEEDED_MAX_QUEUED_DURATION']);
    expect(new Set(items.slice(1).map((e) => e.cursor)).size).toBe(2);
    expect(r.err).toContain('ended EXCEEDED_MAX_QUEUED_DURATION');
  });

  it('an operator task from manifests: the operator type comes from the registry; --set is its configuration', async () => {
    const r = await nvcf([
      'tasks',
      'create',
      'warmup',
      '-f',
      'graph.yaml',
      ...GPU,
      '--set',
      'nvcfSimulate.runMs=10',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.json<Task>()).toMatchObject({ name: 'warmup', workloadType: 'OPERATOR', status: 'QUEUED' });
  });

  it("refusals: another tenant's task is NOT_FOUND (exit 3), a bad duration INVALID_DURATION, a bad command line exit 2", async () => {
    const id = (await container('mine', '-o', 'id')).out.trim();
    const b = { env: { NVCF_TOKEN: 'dev-token-b' } };
    for (const cmd of ['get', 'cancel', 'watch']) {
      const r = await nvcf(['tasks', cmd, id], b);
      expect(r.code).toBe(EXIT.api);
      expect(r.err).toMatch(/^error: NOT_FOUND: /);
    }
    expect((await nvcf(['tasks', 'list', '-o', 'id'], b)).out.split('\n')).not.toContain(id);

    const bad = await container('bad', '--max-runtime', 'P1M');
    expect(bad.code).toBe(EXIT.api);
    expect(bad.err).toMatch(/^error: INVALID_DURATION: .*maxRuntimeDuration/);

    const none = await nvcf(['tasks', 'create', 'x', ...GPU]);
    expect(none.code).toBe(EXIT.usage);
    expect(none.err).toContain('error: say what it runs');
    const both = await nvcf(['tasks', 'create', 'x', '-f', 'graph.yaml', '--container-image', 'i', ...GPU]);
    expect(both.code).toBe(EXIT.usage);
    expect((await nvcf(['tasks', 'list', '--status', 'DONE'])).code).toBe(EXIT.usage);
    expect((await nvcf(['tasks', 'watch', id, '-o', 'id'])).code).toBe(EXIT.usage);
  });

  it('every tasks command sends a trusted document id the gateway runs', async () => {
    const id = (await nvcf(['tasks', 'create', 't', '--container-image', 'i', ...GPU, '-o', 'id'])).out.trim();
    expect(id).not.toBe('');
    for (const argv of [
      ['tasks', 'get', id],
      ['tasks', 'list'],
      ['tasks', 'create', 'op', '-f', 'graph.yaml', ...GPU],
      ['tasks', 'cancel', id],
    ])
      expect(await nvcf(argv)).toMatchObject({ code: EXIT.ok, err: '' });
    expect((await nvcf(['tasks', 'watch', id])).code).toBe(EXIT.taskNotCompleted);
  });
});

cliTasksSuite('memory', (o) => startSystem(o));
