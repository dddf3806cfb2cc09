import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkRegistryFile,
  completeOf,
  defaultRegistryPath,
  failureOf,
  loadRegistry,
  taskComplete,
  type KindSpec,
} from '../src/index.js';

const registry = loadRegistry(defaultRegistryPath());
const nimCacheRule = '- { path: status.state, values: [Ready] }';
const candidate = (to: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'operators.yaml');
  const text = readFileSync(defaultRegistryPath(), 'utf8');
  if (!text.includes(nimCacheRule)) throw new Error('fixture: the NIMCache complete rule is not in the registry');
  writeFileSync(file, text.replace(nimCacheRule, to));
  return file;
};
const cache = (state: string, conditions: unknown[] = []) => ({
  apiVersion: 'apps.nvidia.com/v1alpha1',
  kind: 'NIMCache',
  metadata: { name: 'cache' },
  status: { state, conditions },
});
const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } };

describe('completion rules (tasks)', () => {
  it('a NIMCache is complete once Ready; a Service (no rule) neither completes nor holds a task back', () => {
    const spec = registry.kindOf('apps.nvidia.com/v1alpha1', 'NIMCache')!.spec;
    expect(completeOf(cache('Ready'), spec)).toBe(true);
    expect(completeOf(cache('NotReady'), spec)).toBe(false);
    expect(completeOf(service, registry.kindOf('v1', 'Service')!.spec)).toBeNull();
    expect(taskComplete([cache('Ready'), service], registry)).toBe(true);
    expect(taskComplete([cache('Ready'), cache('NotReady')], registry)).toBe(false);
  });

  it('objects whose kinds have no completion rule never complete a task by themselves', () => {
    const dgd = {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g' },
      status: { state: 'successful' },
    };
    expect(taskComplete([dgd, service], registry)).toBe(false);
    expect(taskComplete([], registry)).toBe(false);
  });

  it('condition rules read the condition, as failure rules do (a Job: Complete or Failed)', () => {
    const job: KindSpec = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      ready: { path: 'status.ready', values: [], atLeast: 1 },
      complete: [{ condition: { type: 'Complete', status: 'True' } }],
      failed: [{ condition: { type: 'Failed', status: 'True' } }],
    };
    const obj = (type: string, message?: string) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'task' },
      status: { conditions: [{ type, status: 'True', reason: 'X', ...(message ? { message } : {}) }] },
    });
    expect(completeOf(obj('Complete'), job)).toBe(true);
    expect(completeOf(obj('Failed'), job)).toBe(false);
    expect(failureOf(obj('Failed', 'loss diverged'), job)).toMatchObject({
      message: 'loss diverged',
      text: 'Job/task: condition Failed=True (X): loss diverged',
    });
  });

  it.each([
    [
      'a path outside status',
      '- { path: spec.state, values: [Ready] }',
      'can never match: operators report completion under status.',
    ],
    ['no values', '- { path: status.state, values: [] }', 'needs a non-empty values list (which values mean complete)'],
    [
      'a severity (completion has none)',
      '- { path: status.state, values: [Ready], severity: permanent }',
      "unknown field 'severity'",
    ],
    [
      'both a path and a condition',
      '- { path: status.state, values: [Ready], condition: { type: Done, status: "True" } }',
      'needs exactly one of path',
    ],
    [
      'a condition status that never occurs',
      '- { condition: { type: Done, status: "yes" } }',
      'can never match: condition status "yes"',
    ],
  ])('operator:check refuses %s', (_what, to, finding) => {
    const findings = checkRegistryFile(candidate(to)).join('\n');
    expect(findings).toContain("operator type 'nim', kinds apps.nvidia.com/v1alpha1/NIMCache, complete[0]");
    expect(findings).toContain(finding);
  });
});
