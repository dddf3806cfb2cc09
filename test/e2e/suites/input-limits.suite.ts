import {
  CreateFunctionDocument,
  CreateFunctionVersionDocument,
  CreateTaskDocument,
  DeployFunctionVersionDocument,
  FunctionsDocument,
  FunctionVersionDocument,
  GpuSpecificationDocument,
  InstanceStatusChangedDocument,
  TasksDocument,
  UpdateGpuSpecificationDocument,
} from '@nvcf/client';
import { waitUntil } from '@nvcf/testing';
import type { System } from '@nvcf/local';
import { inputLimit, inputLimits } from '@nvcf/subgraph-kit';
import { httpClient, ok, errorCode, helmFunction, l40s, deployedHelm, sseRaw, type GraphQLResponse } from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

/* Every bound of lib/subgraph-kit/src/input-limits.ts, over HTTP through the gateway. */

const max = (coordinate: string, key: 'maxLength' | 'maxItems' | 'maxBytes' | 'maxTotalBytes' | 'maxDepth') =>
  inputLimit(coordinate)[key]!;
const str = (n: number, c = 'a') => c.repeat(n);
const list = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i));
const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
/** a JSON object whose JSON text is exactly `bytes` bytes long */
const sized = (bytes: number) => ({ blob: str(bytes - '{"blob":""}'.length, 'x') });
const helm = { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' };
const nimService = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.nvidia.com/v1alpha1',
  kind: 'NIMService',
  metadata: { name: 'llama', ...extra },
  spec: { image: { repository: 'nvcr.io/nim/llama', tag: '1.0' }, replicas: 1, expose: { service: { port: 8000 } } },
});
const ID = inputLimits.defaults.ID.maxLength;
const JSON_BYTES = max('GpuSpecificationInput.configuration', 'maxBytes');
const JSON_DEPTH = max('GpuSpecificationInput.configuration', 'maxDepth');

/**
 * The refusal either layer gives: the code, the field in the message and in extensions.field, no
 * data. The gateway's variable guard names the variable (`$input…`) and may name a deeper path.
 */
function expectRefused(r: GraphQLResponse<unknown>, code: string, field: string) {
  expect(r.errors?.map((e) => e.extensions?.code)).toEqual([code]);
  expect(r.errors![0].message).toContain(field);
  const named = String(r.errors![0].extensions?.field).replace(/^\$/, '');
  expect(named === field || named.startsWith(`${field}.`) || named.startsWith(`${field}[`) ? field : named).toBe(field);
  expect(r.data ?? null).toBeNull();
}

export function inputLimitsSuite(name: string, make: MakeSystem) {
  describe(`${name}: input limits`, () => {
    let system: System;
    const a = () => httpClient(system.url, 'dev-token-a');
    const functionIds = async () =>
      ok(await a()(FunctionsDocument, {}))
        .functions.map((f) => f.id)
        .sort();
    /** posts a body written by hand: JSON.stringify overflows on a value nested 10 000 deep */
    const postRaw = async (body: string): Promise<GraphQLResponse<unknown>> => {
      const res = await fetch(system.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
        body,
      });
      return { ...((await res.json()) as object), status: res.status };
    };
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => {
      for (const url of [system.gateway.url, ...Object.values(system.services)])
        expect((await fetch(`${url}/health`)).status).toBe(200);
      await system?.dispose();
    });

    describe('createFunction', () => {
      const container = (over: Record<string, unknown>) => ({
        name: 'limits',
        container: { image: 'nvcr.io/nca-a/echo:1', ...over },
      });
      it.each<[string, Record<string, unknown>, string, string]>([
        ['a name past 128 characters', { name: str(129), helm }, 'BAD_USER_INPUT', 'input.name'],
        [
          'an inference URL past its bound',
          { name: 'x', inferenceUrl: `/${str(max('CreateFunctionInput.inferenceUrl', 'maxLength'))}`, helm },
          'LIMIT_EXCEEDED',
          'input.inferenceUrl',
        ],
        [
          'a health URI past its bound',
          {
            name: 'x',
            health: { protocol: 'HTTP', uri: `/${str(max('HealthInput.uri', 'maxLength'))}`, port: 8000 },
            helm,
          },
          'LIMIT_EXCEEDED',
          'input.health.uri',
        ],
        [
          'a health timeout past its bound',
          {
            name: 'x',
            health: {
              protocol: 'HTTP',
              uri: '/h',
              port: 8000,
              timeout: str(max('HealthInput.timeout', 'maxLength') + 1),
            },
            helm,
          },
          'LIMIT_EXCEEDED',
          'input.health.timeout',
        ],
        [
          'a 64 KiB container image',
          container({ image: str(64 * 1024, 'i') }),
          'LIMIT_EXCEEDED',
          'input.container.image',
        ],
        [
          'a container image one past its bound',
          container({ image: str(max('ContainerWorkloadInput.image', 'maxLength') + 1, 'i') }),
          'LIMIT_EXCEEDED',
          'input.container.image',
        ],
        [
          'too many container args',
          container({ args: list(max('ContainerWorkloadInput.args', 'maxItems') + 1, () => '-v') }),
          'LIMIT_EXCEEDED',
          'input.container.args',
        ],
        [
          'a container arg past its bound',
          container({ args: ['--ok', str(max('ContainerWorkloadInput.args', 'maxLength') + 1)] }),
          'LIMIT_EXCEEDED',
          'input.container.args[1]',
        ],
        [
          'too many environment variables',
          container({
            environment: list(max('ContainerWorkloadInput.environment', 'maxItems') + 1, (i) => ({
              key: `K${i}`,
              value: 'v',
            })),
          }),
          'LIMIT_EXCEEDED',
          'input.container.environment',
        ],
        [
          'an environment key past its bound',
          container({ environment: [{ key: str(max('KeyValueInput.key', 'maxLength') + 1, 'K'), value: 'v' }] }),
          'LIMIT_EXCEEDED',
          'input.container.environment[0].key',
        ],
        [
          'an environment value past its bound',
          container({
            environment: [
              { key: 'A', value: 'v' },
              { key: 'B', value: str(max('KeyValueInput.value', 'maxLength') + 1) },
            ],
          }),
          'LIMIT_EXCEEDED',
          'input.container.environment[1].value',
        ],
        [
          'a chart URI past its bound',
          {
            name: 'x',
            helm: {
              chart: `oci://${str(max('HelmWorkloadInput.chart', 'maxLength'))}/echo-1.2.3.tgz`,
              serviceName: 'echo',
            },
          },
          'LIMIT_EXCEEDED',
          'input.helm.chart',
        ],
        [
          'a service name past 63 characters',
          { name: 'x', helm: { ...helm, serviceName: str(64) } },
          'BAD_USER_INPUT',
          'input.helm.serviceName',
        ],
        [
          'too many operator types',
          {
            name: 'x',
            operator: {
              operatorTypes: list(max('OperatorWorkloadInput.operatorTypes', 'maxItems') + 1, () => 'nim'),
              manifests: [nimService()],
            },
          },
          'LIMIT_EXCEEDED',
          'input.operator.operatorTypes',
        ],
        [
          'an operator type name past its bound',
          {
            name: 'x',
            operator: {
              operatorTypes: [str(max('OperatorWorkloadInput.operatorTypes', 'maxLength') + 1)],
              manifests: [nimService()],
            },
          },
          'LIMIT_EXCEEDED',
          'input.operator.operatorTypes[0]',
        ],
        [
          'too many manifests',
          {
            name: 'x',
            operator: {
              operatorTypes: ['nim'],
              manifests: list(max('OperatorWorkloadInput.manifests', 'maxItems') + 1, () => nimService()),
            },
          },
          'LIMIT_EXCEEDED',
          'input.operator.manifests',
        ],
        [
          'a manifest past its size',
          {
            name: 'x',
            operator: {
              operatorTypes: ['nim'],
              manifests: [nimService(), sized(max('OperatorWorkloadInput.manifests', 'maxBytes') + 1)],
            },
          },
          'LIMIT_EXCEEDED',
          'input.operator.manifests[1]',
        ],
        [
          'a manifest nested too deep',
          {
            name: 'x',
            operator: { operatorTypes: ['nim'], manifests: [nimService({ annotations: nested(JSON_DEPTH) })] },
          },
          'LIMIT_EXCEEDED',
          'input.operator.manifests[0]',
        ],
        [
          'manifests past their total size',
          {
            name: 'x',
            operator: {
              operatorTypes: ['nim'],
              manifests: list(5, () => sized(max('OperatorWorkloadInput.manifests', 'maxTotalBytes') / 4.5)),
            },
          },
          'LIMIT_EXCEEDED',
          'input.operator.manifests',
        ],
      ])('with %s is refused and stores nothing', async (_what, input, code, field) => {
        const before = await functionIds();
        expectRefused(await a()(CreateFunctionDocument, { input: input as any }), code, field);
        expect(await functionIds()).toEqual(before);
      });

      it('with every string and list at its bound succeeds', async () => {
        const input = {
          name: str(128, 'n'),
          inferenceUrl: `/${str(max('CreateFunctionInput.inferenceUrl', 'maxLength') - 1)}`,
          health: {
            protocol: 'HTTP',
            uri: `/${str(max('HealthInput.uri', 'maxLength') - 1)}`,
            port: 8000,
            timeout: str(max('HealthInput.timeout', 'maxLength'), 'S'),
          },
          container: {
            image: str(max('ContainerWorkloadInput.image', 'maxLength'), 'i'),
            args: list(max('ContainerWorkloadInput.args', 'maxItems'), (i) =>
              i ? `-${i}` : str(max('ContainerWorkloadInput.args', 'maxLength')),
            ),
            environment: list(max('ContainerWorkloadInput.environment', 'maxItems'), (i) => ({
              key: i ? `K${i}` : str(max('KeyValueInput.key', 'maxLength'), 'K'),
              value: i ? 'v' : str(max('KeyValueInput.value', 'maxLength')),
            })),
          },
        };
        const r = await a()(CreateFunctionDocument, { input: input as any });
        expect(ok(r).createFunction.status).toBe('INACTIVE');
        expect(await functionIds()).toContain(r.data!.createFunction.function.id);
      });

      it('with a Helm chart and service name at their bounds succeeds', async () => {
        const chart = `oci://nvcr.io/${str(max('HelmWorkloadInput.chart', 'maxLength') - 'oci://nvcr.io//echo-1.2.3.tgz'.length)}/echo-1.2.3.tgz`;
        expect(chart).toHaveLength(max('HelmWorkloadInput.chart', 'maxLength'));
        const r = await a()(CreateFunctionDocument, {
          input: { name: 'x', helm: { chart, serviceName: str(63, 's') } },
        });
        expect(ok(r).createFunction.workloadType).toBe('HELM');
      });

      it('with manifests at their bounds passes the limits (and reaches manifest validation)', async () => {
        const r = await a()(CreateFunctionDocument, {
          input: {
            name: 'x',
            operator: {
              operatorTypes: ['nim'],
              manifests: [nimService({ annotations: { deep: nested(JSON_DEPTH - 3) } })],
            },
          },
        });
        expect(errorCode(r)).not.toBe('LIMIT_EXCEEDED');
      });

      it('refuses an oversize literal in the document as it refuses a variable', async () => {
        const before = await functionIds();
        const image = str(max('ContainerWorkloadInput.image', 'maxLength') + 1, 'i');
        const r = await postRaw(
          JSON.stringify({
            query: `mutation { createFunction(input: { name: "x", container: { image: "${image}" } }) { id } }`,
          }),
        );
        expectRefused(r, 'LIMIT_EXCEEDED', 'input.container.image');
        expect(await functionIds()).toEqual(before);
      });
    });

    describe('createFunctionVersion', () => {
      it('with a function id past the ID bound is refused', async () => {
        expectRefused(
          await a()(CreateFunctionVersionDocument, { functionId: str(ID + 1), input: { name: 'x', helm } }),
          'LIMIT_EXCEEDED',
          'functionId',
        );
      });
      it('with an oversize input is refused and adds no version', async () => {
        const { functionId } = await helmFunction(a(), 'versions');
        const versions = async () =>
          ok(await a()(FunctionsDocument, {})).functions.find((f) => f.id === functionId)!.versions.length;
        const r = await a()(CreateFunctionVersionDocument, {
          functionId,
          input: { name: 'versions', container: { image: str(max('ContainerWorkloadInput.image', 'maxLength') + 1) } },
        });
        expectRefused(r, 'LIMIT_EXCEEDED', 'input.container.image');
        expect(await versions()).toBe(1);
      });
    });

    describe('deployFunctionVersion', () => {
      let versionId: string;
      beforeAll(async () => {
        ({ versionId } = await helmFunction(httpClient(system.url, 'dev-token-a'), 'deploy-limits'));
      });
      const unchanged = async () => {
        const v = ok(await a()(FunctionVersionDocument, { id: versionId })).functionVersion!;
        expect([v.status, v.deployment]).toEqual(['INACTIVE', null]);
      };
      const specWith = (over: Record<string, unknown>) => ({ gpuSpecifications: [l40s(), l40s(over)] });
      it.each<[string, () => Record<string, unknown>, string, string]>([
        [
          'too many GPU specifications',
          () => ({ gpuSpecifications: list(max('DeployInput.gpuSpecifications', 'maxItems') + 1, () => l40s()) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications',
        ],
        [
          'a GPU name past its bound',
          () => specWith({ gpu: str(max('GpuSpecificationInput.gpu', 'maxLength') + 1, 'G') }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].gpu',
        ],
        [
          'an instance type past its bound',
          () => specWith({ instanceType: str(max('GpuSpecificationInput.instanceType', 'maxLength') + 1) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].instanceType',
        ],
        [
          'too many clusters',
          () => specWith({ clusters: list(max('GpuSpecificationInput.clusters', 'maxItems') + 1, (i) => `c${i}`) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].clusters',
        ],
        [
          'a cluster name past its bound',
          () => specWith({ clusters: [str(max('GpuSpecificationInput.clusters', 'maxLength') + 1)] }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].clusters[0]',
        ],
        [
          'too many regions',
          () => specWith({ regions: list(max('GpuSpecificationInput.regions', 'maxItems') + 1, (i) => `r${i}`) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].regions',
        ],
        [
          'a region name past its bound',
          () => specWith({ regions: [str(max('GpuSpecificationInput.regions', 'maxLength') + 1)] }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].regions[0]',
        ],
        [
          'too many attributes',
          () => specWith({ attributes: list(max('GpuSpecificationInput.attributes', 'maxItems') + 1, (i) => `a${i}`) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].attributes',
        ],
        [
          'an attribute past its bound',
          () => specWith({ attributes: [str(max('GpuSpecificationInput.attributes', 'maxLength') + 1)] }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].attributes[0]',
        ],
        [
          'a configuration one byte past 64 KiB',
          () => specWith({ configuration: sized(JSON_BYTES + 1) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].configuration',
        ],
        [
          'a configuration nested one level too deep',
          () => specWith({ configuration: nested(JSON_DEPTH + 1) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecifications[1].configuration',
        ],
        [
          'too many manifest merge patches',
          () => ({
            gpuSpecifications: [l40s()],
            manifestMergePatches: list(max('DeployInput.manifestMergePatches', 'maxItems') + 1, () => ({})),
          }),
          'LIMIT_EXCEEDED',
          'input.manifestMergePatches',
        ],
        [
          'a merge patch past its size',
          () => ({
            gpuSpecifications: [l40s()],
            manifestMergePatches: [sized(max('DeployInput.manifestMergePatches', 'maxBytes') + 1)],
          }),
          'LIMIT_EXCEEDED',
          'input.manifestMergePatches[0]',
        ],
        [
          'merge patches past their total size',
          () => ({ gpuSpecifications: [l40s()], manifestMergePatches: [sized(40 * 1024), sized(40 * 1024)] }),
          'LIMIT_EXCEEDED',
          'input.manifestMergePatches',
        ],
        [
          'a service name past 63 characters',
          () => ({ gpuSpecifications: [l40s()], serviceName: str(64, 's'), servicePort: 80 }),
          'BAD_USER_INPUT',
          'input.serviceName',
        ],
      ])('with %s is refused; the version stays INACTIVE with no deployment', async (_what, input, code, field) => {
        expectRefused(await a()(DeployFunctionVersionDocument, { versionId, input: input() as any }), code, field);
        await unchanged();
      });

      it('with a version id past the ID bound is refused', async () => {
        expectRefused(
          await a()(DeployFunctionVersionDocument, { versionId: str(ID + 1), input: { gpuSpecifications: [l40s()] } }),
          'LIMIT_EXCEEDED',
          'versionId',
        );
      });

      it('with a configuration nested 10 000 levels deep in variables is refused up front, not INTERNAL', async () => {
        const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
        const spec = JSON.stringify(l40s()).slice(0, -1);
        const body = `{"query":${JSON.stringify('mutation($v: ID!, $input: DeployInput!) { deployFunctionVersion(versionId: $v, input: $input) { id } }')},"variables":{"v":"${versionId}","input":{"gpuSpecifications":[${spec},"configuration":${deep}}]}}}`;
        const started = Date.now();
        const r = await postRaw(body);
        expectRefused(r, 'LIMIT_EXCEEDED', 'input.gpuSpecifications[0].configuration');
        expect(r.errors![0].extensions?.limit).toEqual(expect.any(Number));
        expect(Date.now() - started).toBeLessThan(2000);
        await unchanged();
      });

      it('lists and strings at their bounds pass the limits (and reach placement)', async () => {
        const r = await a()(DeployFunctionVersionDocument, {
          versionId,
          input: {
            gpuSpecifications: [
              l40s({
                gpu: str(max('GpuSpecificationInput.gpu', 'maxLength'), 'G'),
                instanceType: str(max('GpuSpecificationInput.instanceType', 'maxLength')),
                clusters: list(max('GpuSpecificationInput.clusters', 'maxItems'), (i) =>
                  i ? `c${i}` : str(max('GpuSpecificationInput.clusters', 'maxLength')),
                ),
                regions: list(max('GpuSpecificationInput.regions', 'maxItems'), (i) =>
                  i ? `r${i}` : str(max('GpuSpecificationInput.regions', 'maxLength')),
                ),
                attributes: list(max('GpuSpecificationInput.attributes', 'maxItems'), (i) =>
                  i ? `a${i}` : str(max('GpuSpecificationInput.attributes', 'maxLength')),
                ),
              }),
            ],
          },
        });
        expect(errorCode(r)).toBe('NO_ELIGIBLE_CLUSTER');
        await unchanged();
      });

      it('with 16 specifications and a configuration of exactly 64 KiB, 32 levels deep, succeeds', async () => {
        const { versionId: fresh } = await helmFunction(a(), 'deploy-at-limit');
        const configuration = { blob: '', deep: nested(JSON_DEPTH - 1) };
        configuration.blob = str(JSON_BYTES - Buffer.byteLength(JSON.stringify(configuration)), 'x');
        expect(Buffer.byteLength(JSON.stringify(configuration))).toBe(JSON_BYTES);
        const specs = list(max('DeployInput.gpuSpecifications', 'maxItems'), (i) =>
          l40s({ minInstances: 0, maxInstances: 1, configuration: i ? { replicas: 1 } : configuration }),
        );
        const r = await a()(DeployFunctionVersionDocument, { versionId: fresh, input: { gpuSpecifications: specs } });
        expect(ok(r).deployFunctionVersion.gpuSpecifications).toHaveLength(specs.length);
      });
    });

    describe('updateGpuSpecification', () => {
      let spec: Awaited<ReturnType<typeof deployedHelm>>;
      beforeAll(async () => {
        spec = await deployedHelm(httpClient(system.url, 'dev-token-a'), { minInstances: 1, maxInstances: 2 });
      });
      const latest = async () => {
        const s = ok(await a()(GpuSpecificationDocument, { id: spec.specId })).gpuSpecification!;
        return { revision: s.latestRevision!.id, min: s.minInstances, max: s.maxInstances };
      };
      it.each<[string, () => Record<string, unknown>, string]>([
        [
          'a configuration one byte past 64 KiB',
          () => ({ revision: { configuration: sized(max('RevisionInput.configuration', 'maxBytes') + 1) } }),
          'input.revision.configuration',
        ],
        [
          'a configuration nested one level too deep',
          () => ({
            revision: { configuration: nested(max('RevisionInput.configuration', 'maxDepth') + 1) },
            minInstances: 2,
          }),
          'input.revision.configuration',
        ],
        [
          'too many merge patches',
          () => ({
            revision: {
              manifestMergePatches: list(max('RevisionInput.manifestMergePatches', 'maxItems') + 1, () => ({})),
            },
          }),
          'input.revision.manifestMergePatches',
        ],
        [
          'a merge patch nested too deep',
          () => ({ revision: { manifestMergePatches: [{ spec: nested(JSON_DEPTH) }] } }),
          'input.revision.manifestMergePatches[0]',
        ],
        [
          'merge patches past their total size',
          () => ({ revision: { manifestMergePatches: [sized(40 * 1024), sized(40 * 1024)] } }),
          'input.revision.manifestMergePatches',
        ],
      ])('with %s is refused; the latest revision and the bounds are unchanged', async (_what, input, field) => {
        const before = await latest();
        expectRefused(
          await a()(UpdateGpuSpecificationDocument, { id: spec.specId, input: input() as any }),
          'LIMIT_EXCEEDED',
          field,
        );
        expect(await latest()).toEqual(before);
      });

      it('with a specification id past the ID bound is refused', async () => {
        expectRefused(
          await a()(UpdateGpuSpecificationDocument, { id: str(ID + 1), input: { minInstances: 1 } }),
          'LIMIT_EXCEEDED',
          'id',
        );
      });

      it('with a configuration nested 10 000 levels deep in variables is refused up front, not INTERNAL', async () => {
        const before = await latest();
        const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
        const body = `{"query":${JSON.stringify('mutation($id: ID!, $input: UpdateGpuSpecificationInput!) { updateGpuSpecification(id: $id, input: $input) { id } }')},"variables":{"id":"${spec.specId}","input":{"revision":{"configuration":${deep}}}}}`;
        expectRefused(await postRaw(body), 'LIMIT_EXCEEDED', 'input.revision.configuration');
        expect(await latest()).toEqual(before);
      });

      it('with a configuration of exactly 64 KiB stores a new revision', async () => {
        const before = await latest();
        const r = await a()(UpdateGpuSpecificationDocument, {
          id: spec.specId,
          input: { revision: { configuration: sized(max('RevisionInput.configuration', 'maxBytes')) } },
        });
        expect(ok(r).updateGpuSpecification.latestRevision!.id).not.toBe(before.revision);
      });
    });

    describe('createTask', () => {
      const task = (over: Record<string, unknown> = {}, gpu: Record<string, unknown> = {}) => ({
        name: 'limits',
        container: { image: 'nvcr.io/nca-a/eval:1' },
        gpuSpecification: { gpu: 'L40S', instanceType: 'gl40s_1.br25_2xlarge', ...gpu },
        ...over,
      });
      const taskIds = async () =>
        ok(await a()(TasksDocument, { first: 100 }))
          .tasks.edges.map((e) => e.node.id)
          .sort();
      const TASK_JSON_BYTES = max('CreateTaskInput.configuration', 'maxBytes');
      const TASK_JSON_DEPTH = max('CreateTaskInput.configuration', 'maxDepth');

      it.each<[string, Record<string, unknown>, string, string]>([
        ['a name past 128 characters', task({ name: str(129) }), 'BAD_USER_INPUT', 'input.name'],
        [
          'a configuration one byte past its bound',
          task({ configuration: sized(TASK_JSON_BYTES + 1) }),
          'LIMIT_EXCEEDED',
          'input.configuration',
        ],
        [
          'a configuration one level too deep',
          task({ configuration: nested(TASK_JSON_DEPTH + 1) }),
          'LIMIT_EXCEEDED',
          'input.configuration',
        ],
        ...(['maxRuntimeDuration', 'maxQueuedDuration', 'terminationGracePeriodDuration'] as const).map(
          (d): [string, Record<string, unknown>, string, string] => [
            `a ${d} past its bound`,
            task({ [d]: `PT${str(max(`CreateTaskInput.${d}`, 'maxLength'), '1')}S` }),
            'LIMIT_EXCEEDED',
            `input.${d}`,
          ],
        ),
        [
          'a GPU name past its bound',
          task({}, { gpu: str(max('TaskGpuSpecificationInput.gpu', 'maxLength') + 1, 'G') }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecification.gpu',
        ],
        [
          'an instance type past its bound',
          task({}, { instanceType: str(max('TaskGpuSpecificationInput.instanceType', 'maxLength') + 1) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecification.instanceType',
        ],
        [
          'too many clusters',
          task({}, { clusters: list(max('TaskGpuSpecificationInput.clusters', 'maxItems') + 1, (i) => `c${i}`) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecification.clusters',
        ],
        [
          'too many regions',
          task({}, { regions: list(max('TaskGpuSpecificationInput.regions', 'maxItems') + 1, (i) => `r${i}`) }),
          'LIMIT_EXCEEDED',
          'input.gpuSpecification.regions',
        ],
        [
          'a container image past its bound',
          task({ container: { image: str(max('ContainerWorkloadInput.image', 'maxLength') + 1, 'i') } }),
          'LIMIT_EXCEEDED',
          'input.container.image',
        ],
      ])('with %s is refused and stores no task', async (_, input, code, field) => {
        const before = await taskIds();
        expectRefused(await a()(CreateTaskDocument, { input } as never), code, field);
        expect(await taskIds()).toEqual(before);
      });

      it('with a configuration nested 10 000 levels deep in variables is refused up front, not INTERNAL', async () => {
        const before = await taskIds();
        const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
        const input = JSON.stringify(task()).slice(0, -1);
        const body = `{"query":${JSON.stringify('mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }')},"variables":{"input":${input},"configuration":${deep}}}}`;
        const r = await postRaw(body);
        expectRefused(r, 'LIMIT_EXCEEDED', 'input.configuration');
        expect(await taskIds()).toEqual(before);
      });

      it('with every string and list at its bound is queued', async () => {
        const gpu = {
          clusters: list(max('TaskGpuSpecificationInput.clusters', 'maxItems'), (i) =>
            `${i}`.padEnd(max('TaskGpuSpecificationInput.clusters', 'maxLength'), 'c'),
          ),
          regions: list(max('TaskGpuSpecificationInput.regions', 'maxItems'), (i) =>
            `${i}`.padEnd(max('TaskGpuSpecificationInput.regions', 'maxLength'), 'r'),
          ),
        };
        const r = await a()(CreateTaskDocument, {
          input: task({ name: str(128, 'n'), configuration: sized(TASK_JSON_BYTES) }, gpu),
        });
        expect(r.errors).toBeUndefined();
        expect(ok(r).createTask.status).toBe('QUEUED');
      });
    });

    describe('queries and subscriptions', () => {
      it('instances with more than 1000 ids is refused', async () => {
        const ids = list(max('Query.instances(ids:)', 'maxItems') + 1, (i) => `i${i}`);
        const r = await postRaw(
          JSON.stringify({ query: 'query($ids: [ID!]!) { instances(ids: $ids) { id } }', variables: { ids } }),
        );
        expectRefused(r, 'LIMIT_EXCEEDED', 'ids');
      });
      it('instances with exactly 1000 ids is answered', async () => {
        const ids = list(max('Query.instances(ids:)', 'maxItems'), (i) => `i${i}`);
        const r = await postRaw(
          JSON.stringify({ query: 'query($ids: [ID!]!) { instances(ids: $ids) { id } }', variables: { ids } }),
        );
        expect(r.errors).toBeUndefined();
        expect((r.data as { instances: unknown[] }).instances).toHaveLength(ids.length);
      });
      it('an id past the ID bound is refused in a query', async () => {
        const r = await postRaw(
          JSON.stringify({ query: 'query($id: ID!) { function(id: $id) { id } }', variables: { id: str(4096) } }),
        );
        expectRefused(r, 'LIMIT_EXCEEDED', 'id');
      });
      it('a resume cursor past its bound is refused before it is decoded', async () => {
        const { functionId } = await helmFunction(a(), 'cursor-limits');
        const sse = sseRaw(system.url, 'dev-token-a', InstanceStatusChangedDocument, {
          functionId,
          after: str(max('Subscription.instanceStatusChanged(after:)', 'maxLength') + 1),
        });
        try {
          await waitUntil(() => sse.state.ended || sse.events.length > 0, {
            what: 'the subscription answered',
            timeoutMs: 5000,
          });
        } finally {
          sse.close();
        }
        const answer = JSON.stringify({ events: sse.events, body: sse.state.body });
        expect(answer).toContain('LIMIT_EXCEEDED');
        expect(answer).toContain('after');
      });
    });
  });
}
