import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkRegistryFile,
  crdName,
  defaultRegistryPath,
  failures,
  loadRegistry,
  at,
  pathError,
} from '../src/index.js';

const registry = loadRegistry(defaultRegistryPath());
const candidate = (from: string, to: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'operators.yaml');
  const text = readFileSync(defaultRegistryPath(), 'utf8');
  if (!text.includes(from)) throw new Error(`fixture: '${from}' not in the registry`);
  writeFileSync(file, text.replace(from, to));
  return file;
};
const dgd = (status: Record<string, unknown>) => ({
  apiVersion: 'nvidia.com/v1alpha1',
  kind: 'DynamoGraphDeployment',
  metadata: { name: 'graph' },
  status,
});
const dgdRule =
  'path: status.state, values: [failed], severity: permanent, message: "status.conditions[type=Ready].message"';

describe('failure rules', () => {
  it('the shipped registry has failure rules for every Dynamo and NIM kind, and passes the check', () => {
    expect(checkRegistryFile(defaultRegistryPath())).toEqual([]);
    for (const t of registry.types)
      for (const k of [...t.kinds, ...t.secondary])
        expect([t.name, k.kind, (k.failed ?? []).length > 0]).toEqual([t.name, k.kind, true]);
  });

  it('a Dynamo state "failed" is permanent and carries the Ready condition\'s message', () => {
    const [f] = failures(
      [
        dgd({
          state: 'failed',
          conditions: [{ type: 'Ready', status: 'False', reason: 'ImagePullFailed', message: 'pull access denied' }],
        }),
      ],
      registry,
    );
    expect(f).toMatchObject({
      object: 'DynamoGraphDeployment/graph',
      severity: 'permanent',
      rule: 'status.state=failed',
      message: 'pull access denied',
    });
    expect(f.text).toBe('DynamoGraphDeployment/graph: status.state=failed: pull access denied');
  });

  it('Unschedulable is temporary; a ready or pending object has no failure', () => {
    expect(
      failures(
        [
          dgd({
            state: 'pending',
            conditions: [{ type: 'Ready', status: 'False', reason: 'Unschedulable', message: 'no GPUs' }],
          }),
        ],
        registry,
      ),
    ).toEqual([
      expect.objectContaining({
        severity: 'temporary',
        rule: 'condition Ready=False (Unschedulable)',
        message: 'no GPUs',
      }),
    ]);
    expect(failures([dgd({ state: 'successful' }), dgd({ state: 'pending' })], registry)).toEqual([]);
  });

  it('NIM: the Failed condition; a Deployment past its progress deadline; permanent ones first', () => {
    const nim = {
      apiVersion: 'apps.nvidia.com/v1alpha1',
      kind: 'NIMService',
      metadata: { name: 'llama' },
      status: {
        state: 'NotReady',
        conditions: [{ type: 'Failed', status: 'True', reason: 'ModelNotFound', message: 'no such model' }],
      },
    };
    const dep = (type: string, status: string, reason: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'llama' },
      status: { conditions: [{ type, status, reason, message: 'm' }] },
    });
    expect(
      failures([dep('ReplicaFailure', 'True', 'FailedCreate'), nim], registry).map((f) => [f.severity, f.rule]),
    ).toEqual([
      ['permanent', 'condition Failed=True (ModelNotFound)'],
      ['temporary', 'condition ReplicaFailure=True (FailedCreate)'],
    ]);
    expect(failures([dep('Progressing', 'False', 'ProgressDeadlineExceeded')], registry)[0].severity).toBe('permanent');
    expect(failures([dep('Progressing', 'True', 'NewReplicaSetAvailable')], registry)).toEqual([]);
  });

  it('paths select list elements by key', () => {
    expect(
      at(
        {
          status: {
            conditions: [
              { type: 'A', m: 1 },
              { type: 'Ready', m: 2 },
            ],
          },
        },
        'status.conditions[type=Ready].m',
      ),
    ).toEqual([2]);
    expect(pathError('status.conditions[type=Ready].message')).toBeNull();
    expect(pathError('status..x')).toContain("segment ''");
  });

  it("CRD names: the registry's, or the plural convention", () => {
    expect(crdName({ apiVersion: 'apps.nvidia.com/v1alpha1', kind: 'NIMService' })).toBe('nimservices.apps.nvidia.com');
    expect(crdName({ apiVersion: 'x.io/v1', kind: 'Policy', crd: 'policies.x.io' })).toBe('policies.x.io');
  });

  it.each([
    ['a bad path', dgdRule, 'path: "status.[state", values: [failed]', "bad path: segment '[state' of 'status.[state'"],
    [
      'a path outside status',
      dgdRule,
      'path: spec.state, values: [failed]',
      "path 'spec.state' can never match: operators report failures under status.",
    ],
    [
      'values that also mean ready',
      dgdRule,
      'path: status.state, values: [failed, successful]',
      'can never match: ["successful"] at status.state also means ready',
    ],
    ['no values', dgdRule, 'path: status.state, values: []', 'needs a non-empty values list'],
    [
      'a condition status that never occurs',
      '{ condition: { type: Ready, status: "False", reasons: [Unschedulable] }, severity: temporary }',
      '{ condition: { type: Ready, status: "false" } }',
      'can never match: condition status "false" is not one of True, False, Unknown',
    ],
    [
      'an unknown severity',
      dgdRule,
      'path: status.state, values: [failed], severity: fatal',
      'severity must be permanent or temporary',
    ],
    [
      'an unknown field (a misspelt kind of rule)',
      dgdRule,
      'conditon: { type: Ready, status: "False" }',
      "unknown field 'conditon'",
    ],
    [
      'a bad message path',
      dgdRule,
      'path: status.state, values: [failed], message: "status.conditions[type=Ready"',
      'bad message path',
    ],
  ])('operator:check refuses %s', (_what, from, to, finding) => {
    const findings = checkRegistryFile(candidate(from, to));
    expect(findings.join('\n')).toContain(finding);
    expect(findings.join('\n')).toContain(
      "operator type 'dynamo', kinds nvidia.com/v1alpha1/DynamoGraphDeployment, failed[",
    );
  });

  it('a registry without failure rules still loads (the field is optional)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'operators.yaml');
    writeFileSync(
      file,
      readFileSync(defaultRegistryPath(), 'utf8')
        .split('\n')
        .filter((l) => !/^\s+(failed:|complete:|- \{ (path|condition):)/.test(l))
        .join('\n'),
    );
    expect(checkRegistryFile(file)).toEqual([]);
    expect(loadRegistry(file).types[0].kinds[0].failed).toBeUndefined();
  });
});
