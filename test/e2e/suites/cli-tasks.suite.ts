import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatedCluster } from '@nvcf/agent';
import { EXIT } from '@nvcf/cli';
import type { System } from '@nvcf/local';
import { cliAgainst } from '../../src/cli.js';
import { fast, operatorCluster, type MakeSystem } from './system.js';

type Item = { type: string; task?: { id: string; workloadType: string }; status?: string };

const PLACEABLE = ['--gpu', 'L40S', '--instance-type', 'gl40s_1.br25_2xlarge'];

/**
 * What a user does with tasks, run as `nvcf tasks create … --watch`: a container task and an operator
 * task each reach COMPLETED and the command exits 0; a failing one ends ERRORED with its message and
 * exit 1. Shared by the embedded default and the real backends.
 */
export function cliTasksSuite(name: string, make: MakeSystem) {
  describe(`${name}: nvcf tasks create --watch`, () => {
    let system: System;
    let cli: ReturnType<typeof cliAgainst>;
    const files = mkdtempSync(join(tmpdir(), 'nvcf-cli-tasks-'));
    writeFileSync(
      join(files, 'graph.yaml'),
      [
        'apiVersion: nvidia.com/v1alpha1',
        'kind: DynamoGraphDeployment',
        'metadata: { name: warmup }',
        'spec: { services: { worker: { replicas: 1 } } }',
        '',
      ].join('\n'),
    );
    const nvcf = (argv: string[]) => cli.nvcf(argv, { cwd: files });
    const watched = (r: Awaited<ReturnType<typeof nvcf>>) => {
      const items = r.lines<Item>();
      return { task: items[0]?.task, statuses: items.slice(1).map((e) => e.status) };
    };

    beforeAll(async () => {
      system = await make({ ...fast, trustedDocuments: 'require' });
      cli = cliAgainst(system.url);
    });
    afterAll(async () => system?.dispose());

    /** `nvcf tasks create NAME … --watch` on a simulated cluster, its `nvcfSimulate` from `--set`s */
    const createAndWatch = (name: string, workload: string[], simulate: string[], ...more: string[]) =>
      nvcf([
        'tasks',
        'create',
        name,
        ...workload,
        ...PLACEABLE,
        ...simulate.flatMap((kv) => ['--set', `nvcfSimulate.${kv}`]),
        '--watch',
        '--interval',
        '100',
        ...more,
      ]);
    const CONTAINER = ['--container-image', 'nvcr.io/nca-a/eval:1'];

    it('runs a container task to COMPLETED and exits 0', async () => {
      const r = await createAndWatch('eval', CONTAINER, ['runMs=200'], '-o', 'json');
      expect({ code: r.code, err: r.err }).toEqual({ code: EXIT.ok, err: '' });
      const { task, statuses } = watched(r);
      expect(task?.workloadType).toBe('CONTAINER');
      expect(statuses).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    });

    it('runs an operator task from manifests to COMPLETED on the cluster that has its operator, and exits 0', async () => {
      const r = await createAndWatch('warmup', ['-f', 'graph.yaml'], ['runMs=100'], '-o', 'json');
      expect({ code: r.code, err: r.err }).toEqual({ code: EXIT.ok, err: '' });
      const { task, statuses } = watched(r);
      expect(task?.workloadType).toBe('OPERATOR');
      expect(statuses.at(-1)).toBe('COMPLETED');
      expect((system.drivers.get(operatorCluster(system)) as SimulatedCluster).task(task!.id)).toBe('succeeded');
    });

    it('ends a task that fails ERRORED with its message, and exits 1', async () => {
      const r = await createAndWatch('fails', CONTAINER, ['runMs=100', 'exitCode=3', 'message=loss diverged']);
      expect(r.code).toBe(EXIT.taskNotCompleted);
      expect(r.out).toMatch(/ERRORED/);
      expect(r.err).toContain('loss diverged');
    });
  });
}
