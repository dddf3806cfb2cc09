/**
 * Real Helm (built from its Go module, cached in .cache/bin) lints both charts, with their
 * defaults and with the production examples, and its values.schema.json turns a wrong type or
 * an unknown key into a refusal that names it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HelmFailed } from '../../../test/services/helm.js';
import { CHARTS, EXAMPLES, helm, HELM_BUILD_TIMEOUT_MS, helmBinary, helmWarnings, render, type ChartName } from './helm-fixtures.js';

beforeAll(async () => { await helmBinary(); }, HELM_BUILD_TIMEOUT_MS);

/** The message of a `helm template` that fails (and fail the test when it does not). */
async function refusal(chart: ChartName, set: Record<string, string | number | boolean>, values: string[] = []): Promise<string> {
  try {
    await render(chart, { set, values });
  } catch (err) {
    if (err instanceof HelmFailed) return err.stderr;
    throw err;
  }
  throw new Error(`helm template ${chart} accepted ${JSON.stringify(set)}`);
}

describe.each([
  ['controlPlane', 'nvcf-control-plane'],
  ['agent', 'nvca-agent'],
] as const)('helm lint %s', (chart, name) => {
  it.each([
    ['default values', []],
    ['the production example', [EXAMPLES[chart]]],
  ] as const)('passes with %s, strict, and says nothing but INFO', async (_what, values) => {
    const { stdout, stderr } = await helm(['lint', CHARTS[chart], '--strict', ...values.flatMap((v) => ['--values', v])]);
    expect(stdout).toContain(`==> Linting ${CHARTS[chart]}`);
    expect(stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(stdout.split('\n').filter((l) => /^\[(WARNING|ERROR)\]/.test(l))).toEqual([]);
    expect(helmWarnings(stderr)).toEqual([]);
    expect(name).toBeTruthy();
  });
});

describe('values.schema.json refuses bad values with a message naming them', () => {
  it('a wrong type', async () => {
    expect(await refusal('controlPlane', { 'nats.streamReplicas': 'three' })).toMatch(/at '\/nats\/streamReplicas': got string, want integer/);
    expect(await refusal('agent', { concurrency: 'many' })).toMatch(/at '\/concurrency': got string, want integer/);
  });

  it('an unknown key, at the top and deep down (a typo is never silently ignored)', async () => {
    expect(await refusal('controlPlane', { replicaCount: 3 })).toMatch(/at '': additional properties 'replicaCount' not allowed/);
    expect(await refusal('controlPlane', { 'gateway.limits.GATEWAY_MAX_DEPHT': 3 })).toMatch(/at '\/gateway\/limits': additional properties 'GATEWAY_MAX_DEPHT' not allowed/);
    expect(await refusal('agent', { replicas: 2 })).toMatch(/at '': additional properties 'replicas' not allowed/);
  });

  it('rules of the runbooks: two gateways at least, enum values, a bounded drain', async () => {
    expect(await refusal('controlPlane', { 'gateway.replicas': 1 })).toMatch(/at '\/gateway\/replicas': minimum: got 1, want 2/);
    expect(await refusal('controlPlane', { 'gateway.autoscaling.minReplicas': 1 })).toMatch(/at '\/gateway\/autoscaling\/minReplicas': minimum: got 1, want 2/);
    expect(await refusal('controlPlane', { logLevel: 'verbose' })).toMatch(/at '\/logLevel': value must be one of 'debug', 'info', 'warn', 'error', 'silent'/);
    expect(await refusal('agent', { drainGraceMs: 900000 })).toMatch(/at '\/drainGraceMs': maximum: got 900,000, want 600,000/);
  });

  it("node labels of an instance type that Kubernetes would refuse (every task's Job would fail)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-nodesel-'));
    const withLabels = (labels: Record<string, string>) => {
      const file = path.join(dir, `${fs.readdirSync(dir).length}.yaml`);
      const gpu = { name: 'H100', instanceTypes: ['p5.48xlarge'], nodeSelectors: { 'p5.48xlarge': labels } };
      fs.writeFileSync(file, JSON.stringify({ icms: { clusters: [{ id: 'c1', name: 'c1', ncaId: 'nca-p', authorizedNcaIds: [], gpus: [gpu] }] } }));
      return [file];
    };
    expect(await refusal('controlPlane', {}, withLabels({ 'nvidia.com/gpu.product': 'NVIDIA H100' }))).toMatch(/nodeSelectors\/p5\.48xlarge\/nvidia\.com~1gpu\.product': 'NVIDIA H100' does not match pattern/);
    // (Helm's validator names a key's location wrongly; the key itself is named)
    expect(await refusal('controlPlane', {}, withLabels({ 'Nvidia.com/gpu.product': 'H100' }))).toMatch(/invalid propertyName 'Nvidia\.com\/gpu\.product'/);
  });

  it('dev tokens only when enabled explicitly, and then only from a Secret', async () => {
    expect(await refusal('controlPlane', { 'auth.dev.enabled': true })).toMatch(/at '\/auth\/dev\/tokensSecret\/name': minLength: got 0, want 1/);
    expect(await refusal('controlPlane', { 'auth.dev.tokens': 'dev-token-a=nca-a' })).toMatch(/additional properties 'tokens' not allowed/);
  });

  it('what the templates check: a grace period shorter than the drain, a variable the chart owns', async () => {
    expect(await refusal('controlPlane', { terminationGracePeriodSeconds: 20 })).toMatch(/terminationGracePeriodSeconds \(20\) must exceed preStopSleepSeconds \+ drainGraceMs \(25 s\)/);
    expect(await refusal('agent', { terminationGracePeriodSeconds: 5 })).toMatch(/terminationGracePeriodSeconds \(5\) must exceed drainGraceMs \(20 s\)/);
    expect(await refusal('controlPlane', { 'gateway.extraEnv[0].name': 'AUTH_MODE', 'gateway.extraEnv[0].value': 'dev' })).toMatch(/gateway\.extraEnv: AUTH_MODE is set by the chart/);
    expect(await refusal('agent', { 'extraEnv[0].name': 'CLUSTER_ID', 'extraEnv[0].value': 'x' })).toMatch(/extraEnv: CLUSTER_ID is set by the chart/);
  });
});
