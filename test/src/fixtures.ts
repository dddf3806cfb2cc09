import { CreateFunctionDocument, DeployFunctionVersionDocument, type GpuSpecificationInput } from '@nvcf/client';
import { ok, type HttpClient } from './client.js';

let n = 0;

/** Creates a Helm function; the chart and service name follow API.md's rules. */
export async function helmFunction(client: HttpClient, name = `fn-${Date.now().toString(36)}-${n++}`) {
  const r = ok(
    await client(CreateFunctionDocument, {
      input: {
        name,
        inferenceUrl: '/v1/infer',
        inferencePort: 8000,
        helm: { chart: 'oci://nvcr.io/nca-a/echo-1.2.3.tgz', serviceName: 'echo' },
      },
    }),
  );
  return { versionId: r.createFunction.id, functionId: r.createFunction.function.id };
}

export const l40s = (over: Partial<GpuSpecificationInput> = {}): GpuSpecificationInput => ({
  gpu: 'L40S',
  instanceType: 'gl40s_1.br25_2xlarge',
  minInstances: 2,
  maxInstances: 4,
  configuration: { replicas: 1, model: 'v1' },
  ...over,
});

export async function deployHelm(client: HttpClient, versionId: string, specs: GpuSpecificationInput[] = [l40s()]) {
  const r = ok(await client(DeployFunctionVersionDocument, { versionId, input: { gpuSpecifications: specs } }));
  return r.deployFunctionVersion.gpuSpecifications.map((s) => s.id);
}
