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
 * task each reach COMPLETED and the command exits 0. Shared by the embedded default and the real backends.
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

    it('runs a container task to COMPLETED and exits 0', async () => {
      const r = await nvcf([
        'tasks',
        'create',
        'eval',
        '--container-image',
        'nvcr.io/nca-a/eval:1',
        ...PLACEABLE,
        '--set',
        'nvcfSimulate.runMs=200',
        '--watch',
        '--interval',
        '100',
        '-o',
        'json',
      ]);
      expect({ code: r.code, err: r.err }).toEqual({ code: EXIT.ok, err: '' });
      const { task, statuses } = watched(r);
      expect(task?.workloadType).toBe('CONTAINER');
      expect(statuses).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING', 'COMPLETED']);
    });

    it('runs an operator task from manifests to COMPLETED on the cluster that has its operator, and exits 0', async () => {
      const r = await nvcf([
        'tasks',
        'create',
        'warmup',
        '-f',
        'graph.yaml',
        ...PLACEABLE,
        '--set',
        'nvcfSimulate.runMs=100',
        '--watch',
        '--interval',
        '100',
        '-o',
        'json',
      ]);
      expect({ code: r.code, err: r.err }).toEqual({ code: EXIT.ok, err: '' });
      const { task, statuses } = watched(r);
      expect(task?.workloadType).toBe('OPERATOR');
      expect(statuses.at(-1)).toBe('COMPLETED');
      expect((system.drivers.get(operatorCluster(system)) as SimulatedCluster).task(task!.id)).toBe('succeeded');
    });
  });
}
