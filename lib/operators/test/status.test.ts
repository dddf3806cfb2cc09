import {
  mergeManifestPatches,
  ManifestPatchRejected,
  operatorStatus,
  parseReadiness,
  type Failure,
} from '../src/index.js';

const failure = (severity: Failure['severity']): Failure => ({
  object: 'DynamoGraphDeployment/graph',
  severity,
  rule: 'status.state=failed',
  text: `DynamoGraphDeployment/graph: status.state=failed: ${severity}`,
});
const none = { pending: [], failures: [], secondaries: { ready: 2, total: 2 } };

describe('operatorStatus: the status of an operator-mode MiniService', () => {
  it('is Ready with every object ready, readiness counting what the operators created', () => {
    expect(operatorStatus(none)).toEqual({
      phase: 'Ready',
      readiness: '2/2',
      message: 'every object ready (2/2 created by the operators)',
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ObjectsReady',
          message: 'every object ready (2/2 created by the operators)',
        },
      ],
    });
  });

  it('orders its verdicts: deleting, a refused apply, a permanent failure, a temporary one, then what is pending', () => {
    const all = {
      pending: ['Deployment/llama (not ready)'],
      failures: [failure('permanent'), failure('temporary')],
      secondaries: { ready: 0, total: 1 },
      applyError: 'NIMService.apps.nvidia.com "llama" is invalid',
    };
    expect(operatorStatus({ ...all, deleting: true }).phase).toBe('Deleting');
    expect(operatorStatus(all)).toMatchObject({
      phase: 'Failed',
      message: 'cannot apply the manifests: NIMService.apps.nvidia.com "llama" is invalid',
      conditions: [{ reason: 'ApplyFailed' }],
    });
    const { applyError: _, ...applied } = all;
    expect(operatorStatus(applied)).toMatchObject({ phase: 'Failed', conditions: [{ reason: 'OperatorFailed' }] });
    expect(operatorStatus({ ...applied, failures: [failure('temporary')] })).toMatchObject({
      phase: 'Installing',
      readiness: '0/1',
      conditions: [{ status: 'False', reason: 'OperatorRetrying', message: failure('temporary').text }],
    });
    expect(operatorStatus({ ...applied, failures: [] })).toMatchObject({
      phase: 'Installing',
      message: 'waiting for Deployment/llama (not ready)',
      conditions: [{ reason: 'ObjectsNotReady' }],
    });
  });

  it('reads readiness back as numbers', () => {
    expect(parseReadiness('3/4')).toEqual({ ready: 3, total: 4 });
    expect(parseReadiness('3 of 4')).toBeNull();
    expect(parseReadiness(undefined)).toBeNull();
  });
});

describe('mergeManifestPatches', () => {
  const base = [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { port: 1 } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'v' } },
  ];
  it('patches the manifest a patch names, and refuses one that renames it', () => {
    const out = mergeManifestPatches(base, [{ kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: null } }], 'p');
    expect(out[1]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: {} });
    expect(base[1].data).toEqual({ k: 'v' });
    expect(() => mergeManifestPatches(base, [{ spec: {} }], 'p')).toThrow(
      new ManifestPatchRejected('p[0] must name its target by kind and metadata.name: there are 2 manifests', 0),
    );
  });
});
