import { DeployFunctionVersionDocument, type DeployInput, type GpuSpecificationInput } from '@nvcf/client';
import type { Ctx } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { renderStreamItem, streamFormat, table } from './output.js';
import type { OutputFormat } from './formats.js';
import { composeConfiguration, readConfigurationInputs, readYamlDocuments } from './values.js';

export interface DeployOptions {
  output: OutputFormat;
  watch?: boolean;
  gpu: string;
  instanceType: string;
  min: number;
  max: number;
  maxConcurrency?: number;
  cluster: string[];
  region: string[];
  attribute: string[];
  values: string[];
  set: string[];
  setString: string[];
  serviceName?: string;
  servicePort?: number;
  patch: string[];
}

/** Merge patches from YAML files (operator workloads): every document of every file, in order. */
export async function readPatches(cwd: string, files: string[], flag: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const f of files) {
    for (const [i, doc] of (await readYamlDocuments(cwd, f, flag)).entries()) {
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
        throw new UsageError(`${flag} ${f}: document ${i + 1} is not a map (a merge patch is an object)`);
      out.push(doc as Record<string, unknown>);
    }
  }
  return out;
}

/** `nvcf deploy VERSION`: one GPU specification from the flags; --watch follows its first rollout. */
export async function deploy(ctx: Ctx, versionId: string, opts: DeployOptions): Promise<number> {
  if (opts.min > opts.max) throw new UsageError(`--min ${opts.min} is more than --max ${opts.max}`);
  if ((opts.serviceName === undefined) !== (opts.servicePort === undefined))
    throw new UsageError(
      '--service-name and --service-port go together (operator workloads: the Service the worker sidecar sends requests to)',
    );
  const spec: GpuSpecificationInput = {
    gpu: opts.gpu,
    instanceType: opts.instanceType,
    minInstances: opts.min,
    maxInstances: opts.max,
    ...(opts.maxConcurrency !== undefined ? { maxRequestConcurrency: opts.maxConcurrency } : {}),
    ...(opts.cluster.length ? { clusters: opts.cluster } : {}),
    ...(opts.region.length ? { regions: opts.region } : {}),
    ...(opts.attribute.length ? { attributes: opts.attribute } : {}),
    ...(opts.values.length || opts.set.length || opts.setString.length
      ? {
          configuration: composeConfiguration(
            {},
            await readConfigurationInputs(ctx.io.cwd, opts.values, opts.set, opts.setString),
          ),
        }
      : {}),
  };
  const patches = await readPatches(ctx.io.cwd, opts.patch, '--patch');
  const input: DeployInput = {
    gpuSpecifications: [spec],
    ...(patches.length ? { manifestMergePatches: patches } : {}),
    ...(opts.serviceName !== undefined ? { serviceName: opts.serviceName, servicePort: opts.servicePort } : {}),
  };
  const d = (await (await ctx.client()).mutate(DeployFunctionVersionDocument, { versionId, input }))
    .deployFunctionVersion;
  // json/yaml with --watch: one stream of items, the deployment its first
  if (opts.watch && opts.output !== 'table')
    ctx.out(renderStreamItem(streamFormat(opts.output), { type: 'deployed', deployment: d }));
  else
    ctx.print(
      opts.output,
      d,
      () =>
        table(
          ['GPU SPECIFICATION', 'GPU', 'INSTANCE TYPE', 'MIN', 'MAX', 'CLUSTERS'],
          d.gpuSpecifications.map((s) => [
            s.id,
            s.gpu,
            s.instanceType,
            String(s.minInstances),
            String(s.maxInstances),
            s.clusters.join(','),
          ]),
          ctx.colors,
        ),
      () => d.gpuSpecifications.map((s) => s.id),
    );
  const specId = d.gpuSpecifications[0]?.id;
  if (!opts.watch || !specId) return EXIT.ok;
  const { watchRollout } = await import('./rollout.js');
  return watchRollout(ctx, specId, opts.output);
}
