import { buildPatch, MalformedObject, type Injection, type PatchOp, type Target } from '../src/index.js';

const inj: Injection = {
  labels: {
    'nvcf.nvidia.com/nca-id': 'nca-a',
    'nvcf.nvidia.com/function-id': 'fn-1',
    'nvcf.nvidia.com/version-id': 'ver-1',
    'nvcf.nvidia.com/instance-id': 'inst-1',
  },
  annotations: { 'nvcf.nvidia.com/revision-id': 'rev-1' },
  env: {
    NVCF_NCA_ID: 'nca-a',
    NVCF_FUNCTION_ID: 'fn-1',
    NVCF_FUNCTION_VERSION_ID: 'ver-1',
    NVCF_INSTANCE_ID: 'inst-1',
  },
};
const ENV = Object.entries(inj.env).map(([name, value]) => ({ name, value }));
const create = (group: string, kind: string): Target => ({ group, kind, operation: 'CREATE' });

/** RFC 6902 add/replace as the API server applies them, enough to check a patch's effect. */
function apply(obj: unknown, ops: PatchOp[]): unknown {
  const out = structuredClone(obj) as Record<string, unknown>;
  for (const op of ops) {
    const keys = op.path
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    let cur = out;
    for (const k of keys) cur = cur[k] as Record<string, unknown>;
    if (op.op === 'replace' && !(last in cur)) throw new Error(`replace of a missing ${op.path}`);
    cur[last] = op.value;
  }
  return out;
}

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'p' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec,
});
const template = (spec: Record<string, unknown>) => ({ metadata: { labels: { app: 'x' } }, spec });

describe('the patch builder', () => {
  const workloads: [string, string, string[], Record<string, unknown>][] = [
    ['apps', 'Deployment', ['spec', 'template'], { spec: { template: template({ containers: [{ name: 'c' }] }) } }],
    ['apps', 'StatefulSet', ['spec', 'template'], { spec: { template: template({ containers: [{ name: 'c' }] }) } }],
    ['apps', 'DaemonSet', ['spec', 'template'], { spec: { template: template({ containers: [{ name: 'c' }] }) } }],
    ['apps', 'ReplicaSet', ['spec', 'template'], { spec: { template: template({ containers: [{ name: 'c' }] }) } }],
    ['batch', 'Job', ['spec', 'template'], { spec: { template: template({ containers: [{ name: 'c' }] }) } }],
    [
      'batch',
      'CronJob',
      ['spec', 'jobTemplate', 'spec', 'template'],
      { spec: { jobTemplate: { spec: { template: template({ containers: [{ name: 'c' }] }) } } } },
    ],
  ];

  it('puts labels, the revision annotation and env on a pod and every container, init containers too', () => {
    const obj = pod({
      initContainers: [{ name: 'init' }],
      containers: [{ name: 'a' }, { name: 'b', env: [{ name: 'X', value: '1' }] }],
    });
    const out = apply(obj, buildPatch(obj, create('', 'Pod'), inj)) as ReturnType<typeof pod>;
    expect(out.metadata).toEqual({ name: 'p', labels: inj.labels, annotations: inj.annotations });
    expect(out.spec).toEqual({
      initContainers: [{ name: 'init', env: ENV }],
      containers: [
        { name: 'a', env: ENV },
        { name: 'b', env: [...ENV, { name: 'X', value: '1' }] },
      ],
    });
  });

  it.each(workloads)('patches the pod template of a %s/%s', (group, kind, path, body) => {
    const obj = { apiVersion: `${group}/v1`, kind, metadata: { name: 'w', labels: { team: 'a' } }, ...body };
    const out = apply(obj, buildPatch(obj, create(group, kind), inj)) as Record<string, unknown>;
    expect((out.metadata as Record<string, unknown>).labels).toEqual({ team: 'a', ...inj.labels });
    const tpl = path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], out);
    expect(tpl).toEqual({
      metadata: { labels: { app: 'x', ...inj.labels }, annotations: inj.annotations },
      spec: { containers: [{ name: 'c', env: ENV }] },
    });
    expect(buildPatch(out, create(group, kind), inj)).toEqual([]);
  });

  it('gives an empty patch to an object that already carries everything', () => {
    const obj = pod(
      { containers: [{ name: 'a', env: ENV }] },
      { name: 'p', labels: inj.labels, annotations: inj.annotations },
    );
    expect(buildPatch(obj, create('', 'Pod'), inj)).toEqual([]);
    expect(buildPatch(obj, { group: '', kind: 'Pod', operation: 'UPDATE' }, inj)).toEqual([]);
  });

  it('keeps existing labels, replaces a wrong NVCF id, and leaves a revision annotation the agent set', () => {
    const obj = pod(
      { containers: [] },
      {
        name: 'p',
        labels: { app: 'x', 'nvcf.nvidia.com/instance-id': 'someone-else' },
        annotations: { 'nvcf.nvidia.com/revision-id': 'rev-2', note: 'kept' },
      },
    );
    const out = apply(obj, buildPatch(obj, create('', 'Pod'), inj)) as ReturnType<typeof pod>;
    expect(out.metadata).toEqual({
      name: 'p',
      labels: { app: 'x', ...inj.labels },
      annotations: { 'nvcf.nvidia.com/revision-id': 'rev-2', note: 'kept' },
    });
  });

  it('replaces a conflicting env entry in place and drops its duplicates instead of adding another', () => {
    const env = [
      { name: 'A', value: '1' },
      { name: 'NVCF_INSTANCE_ID', value: 'wrong' },
      { name: 'NVCF_NCA_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'NVCF_INSTANCE_ID', value: 'inst-1' },
    ];
    const obj = pod({ containers: [{ name: 'a', env }] });
    const out = apply(obj, buildPatch(obj, create('', 'Pod'), inj)) as { spec: { containers: { env: unknown[] }[] } };
    expect(out.spec.containers[0].env).toEqual([
      { name: 'NVCF_FUNCTION_ID', value: 'fn-1' },
      { name: 'NVCF_FUNCTION_VERSION_ID', value: 'ver-1' },
      { name: 'A', value: '1' },
      { name: 'NVCF_INSTANCE_ID', value: 'inst-1' },
      { name: 'NVCF_NCA_ID', value: 'nca-a' },
    ]);
    expect(buildPatch(out, create('', 'Pod'), inj)).toEqual([]);
  });

  it('labels a pod without containers or metadata, and a Service (no pod spec) by its metadata alone', () => {
    const bare = { apiVersion: 'v1', kind: 'Pod', spec: {} };
    expect(buildPatch(bare, create('', 'Pod'), inj)).toEqual([
      { op: 'add', path: '/metadata', value: { labels: inj.labels, annotations: inj.annotations } },
    ]);
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } };
    expect(apply(svc, buildPatch(svc, create('', 'Service'), inj))).toEqual({
      ...svc,
      metadata: { name: 's', labels: inj.labels, annotations: inj.annotations },
    });
  });

  it('on an update, leaves the pod spec of a Pod or Job alone (the API server refuses changing it)', () => {
    const obj = pod({ containers: [{ name: 'a' }] }, { name: 'p', labels: inj.labels, annotations: inj.annotations });
    expect(buildPatch(obj, { group: '', kind: 'Pod', operation: 'UPDATE' }, inj)).toEqual([]);
    const job = {
      metadata: { labels: inj.labels, annotations: inj.annotations },
      spec: { template: template({ containers: [{ name: 'c' }] }) },
    };
    expect(buildPatch(job, { group: 'batch', kind: 'Job', operation: 'UPDATE' }, inj)).toEqual([]);
    const deploy = { ...job };
    expect(
      buildPatch(deploy, { group: 'apps', kind: 'Deployment', operation: 'UPDATE' }, inj).map((o) => o.path),
    ).toContain('/spec/template/spec/containers/0/env');
  });

  it('takes a kind of another group by its metadata only (a CRD named Deployment is not apps/Deployment)', () => {
    const obj = { metadata: { name: 'x' }, spec: { whatever: true } };
    expect(buildPatch(obj, create('example.com', 'Deployment'), inj).map((o) => o.path)).toEqual([
      '/metadata/labels',
      '/metadata/annotations',
    ]);
  });

  it.each([
    ['not an object', [1, 2], '', 'Pod', /the object is not a JSON object/],
    ['metadata a string', { metadata: 'x', spec: {} }, '', 'Pod', /\/metadata is not an object/],
    ['containers not a list', { spec: { containers: { name: 'a' } } }, '', 'Pod', /\/spec\/containers is not a list/],
    [
      'env not a list',
      { spec: { containers: [{ name: 'a', env: 'A=1' }] } },
      '',
      'Pod',
      /containers\/0\/env is not a list/,
    ],
    ['an env entry not an object', { spec: { containers: [{ env: ['A'] }] } }, '', 'Pod', /env\/0 is not an object/],
    ['a Deployment without a template', { spec: {} }, 'apps', 'Deployment', /\/spec\/template is missing/],
  ])('refuses to patch %s, naming where', (_, obj, group, kind, message) => {
    expect(() => buildPatch(obj, create(group, kind), inj)).toThrow(MalformedObject);
    expect(() => buildPatch(obj, create(group, kind), inj)).toThrow(message);
  });
});
