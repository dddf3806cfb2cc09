import type { ClusterRecord } from '@nvcf/subgraph-icms';

/** The demo seed: two clusters, two tenants (API.md's dev tokens). A suffix keeps test systems apart. */
export const demoClusters = (suffix = ''): ClusterRecord[] => [
  {
    id: `cluster-a${suffix}`,
    name: `us-west-l40s${suffix}`,
    ncaId: 'nca-platform',
    authorizedNcaIds: ['nca-a', 'nca-b'],
    attributes: [],
    regions: ['us-west-2'],
    // no capacity: never full (the benchmarks deploy thousands of instances on copies of it)
    gpus: [
      {
        name: 'L40S',
        instanceTypes: ['gl40s_1.br25_2xlarge', 'gl40s_2.br25_4xlarge'],
        gpusPerInstance: { 'gl40s_2.br25_4xlarge': 2 },
        // GPU Feature Discovery's labels: its 2-GPU tasks' pods go to those nodes (docs/tasks.md, Node selection)
        nodeSelectors: {
          'gl40s_2.br25_4xlarge': { 'nvidia.com/gpu.product': 'NVIDIA-L40S', 'nvidia.com/gpu.count': '2' },
        },
      },
    ],
  },
  {
    id: `cluster-b${suffix}`,
    name: `us-east-h100${suffix}`,
    ncaId: 'nca-platform',
    authorizedNcaIds: ['nca-a', 'nca-b'],
    attributes: ['DynamoOperatorSupport', 'NIMOperatorSupport'],
    regions: ['us-east-1'],
    gpus: [
      {
        name: 'H100',
        instanceTypes: ['gh100_1.br20_2xlarge', 'gh100_8.br20_16xlarge'],
        capacity: 16,
        gpusPerInstance: { 'gh100_8.br20_16xlarge': 8 },
      },
      { name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] },
    ],
  },
];
