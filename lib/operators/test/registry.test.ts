import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadRegistry,
  defaultRegistryPath,
  RegistryRejected,
  injectIdentity,
  notReady,
  mergePatch,
  LABEL,
} from '../src/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const withWildcard = () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-'));
  const file = join(dir, 'operators.yaml');
  writeFileSync(
    file,
    readFileSync(defaultRegistryPath(), 'utf8').replace(
      'verbs: [get, list, watch, create, update, patch, delete]',
      'verbs: ["*"]',
    ),
  );
  return file;
};

describe('operator-type registry', () => {
  it('ships dynamo and nim from the configuration file', () => {
    const r = loadRegistry(defaultRegistryPath());
    expect(r.types.map((t) => [t.name, t.clusterAttribute])).toEqual([
      ['dynamo', 'DynamoOperatorSupport'],
      ['nim', 'NIMOperatorSupport'],
    ]);
    expect(r.kindOf('apps.nvidia.com/v1alpha1', 'NIMCache', ['nim'])?.type.name).toBe('nim');
    expect(r.kindOf('apps.nvidia.com/v1alpha1', 'NIMCache', ['dynamo'])).toBeUndefined();
  });

  it('refuses a registry whose RBAC has a wildcard, naming the type, the role and the rule', () => {
    const file = withWildcard();
    expect(() => loadRegistry(file)).toThrow(RegistryRejected);
    expect(() => loadRegistry(file)).toThrow(
      "operator type 'dynamo', ClusterRole 'dynamo-operator', rule 0: wildcard '*' in verbs",
    );
  });

  it('operator:check prints the same findings and exits non-zero', () => {
    const file = withWildcard();
    let out = '';
    let status = 0;
    try {
      execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'lib/operators/scripts/check.ts'), file], {
        stdio: 'pipe',
      });
    } catch (err: any) {
      status = err.status;
      out = String(err.stderr);
    }
    expect(status).toBe(1);
    expect(out).toContain("operator type 'dynamo', ClusterRole 'dynamo-operator', rule 0: wildcard '*' in verbs");
    const good = execFileSync(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'lib/operators/scripts/check.ts'), defaultRegistryPath()],
      { stdio: 'pipe' },
    ).toString();
    expect(good).toContain('ok');
  }, 30_000);

  it("injects NVCF labels into every object and the registry's pod templates", () => {
    const r = loadRegistry(defaultRegistryPath());
    const id = { ncaId: 'nca-a', functionId: 'f', versionId: 'v', instanceId: 'i', revisionId: 'r' };
    const [dgd, svc]: any[] = injectIdentity(
      [
        {
          apiVersion: 'nvidia.com/v1alpha1',
          kind: 'DynamoGraphDeployment',
          metadata: { name: 'g', labels: { mine: 'x' } },
          spec: { services: { frontend: {}, worker: { extraPodMetadata: { labels: { a: 'b' } } } } },
        },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } },
      ],
      id,
      r,
    );
    expect(dgd.metadata.labels).toMatchObject({ mine: 'x', [LABEL.instanceId]: 'i', [LABEL.ncaId]: 'nca-a' });
    expect(dgd.metadata.annotations['nvcf.nvidia.com/revision-id']).toBe('r');
    expect(dgd.spec.services.worker.extraPodMetadata.labels).toMatchObject({ a: 'b', [LABEL.functionId]: 'f' });
    expect(dgd.spec.services.frontend.extraPodMetadata.labels[LABEL.versionId]).toBe('v');
    expect(svc.metadata.labels[LABEL.instanceId]).toBe('i');
  });

  it('readiness follows the status mapping, secondary kinds included', () => {
    const r = loadRegistry(defaultRegistryPath());
    const nim = {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'n' },
      status: { state: 'Pending' },
    };
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, status: { readyReplicas: 0 } };
    expect(notReady([nim, dep], r)).toEqual(['NIMService/n', 'Deployment/d']);
    expect(
      notReady(
        [
          { ...nim, status: { state: 'Ready' } },
          { ...dep, status: { readyReplicas: 1 } },
        ],
        r,
      ),
    ).toEqual([]);
  });

  it('merge patches follow RFC 7396', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { b: { c: null, x: 1 }, e: [2], f: 'n' })).toEqual({
      a: 1,
      b: { d: 3, x: 1 },
      e: [2],
      f: 'n',
    });
  });
});
