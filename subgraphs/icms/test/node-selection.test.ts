/**
 * Node selection by instance type: a cluster record's GPU entry may name, per instance type, the
 * node labels its nodes carry. The clusters file refuses labels Kubernetes would refuse, and a
 * task's run message carries its instance type's labels (none named: no selector, as before).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '@nvcf/config';
import type { RunTaskMessage, TaskPlacement } from '@nvcf/contracts';
import type { ClusterRecord } from '../src/index.js';
import { readClusters } from '../src/clusters-file.js';
import { handlersWith } from './fixtures.js';

const P5 = 'p5.48xlarge';
const ONE = 'gh100_1.br20_2xlarge';
const P5_NODES = { 'node.kubernetes.io/instance-type': P5, 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' };

const cluster = (nodeSelectors?: unknown) => ({
  id: 'c1',
  name: 'us-east-h100',
  ncaId: 'provider',
  authorizedNcaIds: ['nca-a'],
  gpus: [{ name: 'H100', instanceTypes: [P5, ONE], gpusPerInstance: { [P5]: 8 }, nodeSelectors }],
});

const dir = mkdtempSync(path.join(tmpdir(), 'icms-clusters-'));
/** reads the clusters as the file would hold them (JSON is YAML) */
const read = (clusters: unknown[]) => {
  const file = path.join(dir, 'clusters.yaml');
  writeFileSync(file, JSON.stringify(clusters));
  return readClusters({ ICMS_CLUSTERS_FILE: file });
};

describe('the clusters file: nodeSelectors', () => {
  it('takes node labels per instance type, and a GPU entry without any', () => {
    expect(read([cluster({ [P5]: P5_NODES })])[0].gpus[0].nodeSelectors).toEqual({ [P5]: P5_NODES });
    expect(read([cluster()])[0].gpus[0].nodeSelectors).toBeUndefined();
    // an empty value is a label value too (a node labelled `gpu-pool=`)
    expect(() => read([cluster({ [P5]: { 'example.com/gpu-pool': '' } })])).not.toThrow();
  });

  it.each([
    ['not a map', [P5], 'nodeSelectors must map instance types to node labels'],
    [
      'an instance type the entry does not list',
      { 'g5.xlarge': P5_NODES },
      "nodeSelectors.g5.xlarge: not one of the entry's instanceTypes",
    ],
    ['no labels', { [P5]: {} }, `nodeSelectors.${P5} must be a non-empty map of node labels`],
    [
      'a key with a bad prefix',
      { [P5]: { 'Node.Kubernetes.io/instance-type': P5 } },
      "label key 'Node.Kubernetes.io/instance-type': its prefix must be a DNS subdomain",
    ],
    [
      'a key with a bad name',
      { [P5]: { 'nvidia.com/gpu product': 'H100' } },
      "label key 'nvidia.com/gpu product': its name must be at most 63 letters",
    ],
    [
      'a name too long',
      { [P5]: { ['x'.repeat(64)]: 'a' } },
      `label key '${'x'.repeat(64)}': its name must be at most 63`,
    ],
    [
      'a bad value',
      { [P5]: { 'nvidia.com/gpu.product': 'NVIDIA H100' } },
      "label 'nvidia.com/gpu.product': its value 'NVIDIA H100' must be at most 63 letters",
    ],
    [
      'a value that is no string',
      { [P5]: { 'nvidia.com/gpu.count': 8 } },
      "label 'nvidia.com/gpu.count': its value must be a string (got 8)",
    ],
  ])('refuses %s, naming the cluster, the GPU and what is wrong', (_, nodeSelectors, why) => {
    let err: unknown;
    try {
      read([cluster(nodeSelectors)]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(`: cluster c1, GPU H100: `);
    expect((err as Error).message).toContain(why);
  });
});

describe('placeTask: node selection', () => {
  const task = (instanceType: string): TaskPlacement => ({
    placement: { gpu: 'H100', instanceType, clusters: [], regions: [], attributes: [], singleTenant: false },
    run: {
      ncaId: 'nca-a',
      taskId: `t-${instanceType}`,
      gpu: 'H100',
      instanceType,
      workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
      configuration: null,
      terminationGracePeriodDuration: 'PT30S',
    },
  });
  const record = (nodeSelectors?: Record<string, Record<string, string>>): ClusterRecord => {
    const { gpus, ...rest } = cluster();
    return { ...rest, attributes: [], regions: [], gpus: gpus.map((g) => ({ ...g, nodeSelectors })) };
  };

  it("puts the instance type's node labels in the run message", async () => {
    const { published, icms } = await handlersWith<RunTaskMessage>([record({ [P5]: P5_NODES })]);
    await icms.placeTask('nca-a', task(P5));
    expect(published.at(-1)!.msg).toMatchObject({ clusterId: 'c1', gpuCount: 8, nodeSelector: P5_NODES });
  });

  it('sends no selector for an instance type the record names no labels for, nor for a record without any', async () => {
    for (const r of [record({ [P5]: P5_NODES }), record()]) {
      const { published, icms } = await handlersWith<RunTaskMessage>([r]);
      await icms.placeTask('nca-a', task(ONE));
      expect(published.at(-1)!.msg).toMatchObject({ clusterId: 'c1', gpuCount: 1 });
      expect(published.at(-1)!.msg).not.toHaveProperty('nodeSelector');
    }
  });
});
