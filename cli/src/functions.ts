import {
  CreateFunctionDocument,
  CreateFunctionVersionDocument,
  FunctionDocument,
  FunctionsDocument,
  UndeployFunctionVersionDocument,
  type CreateFunctionInput,
  type FunctionVersionFieldsFragment,
} from '@nvcf/client';
import { found, type Ctx } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { details, table, when } from './output.js';
import type { OutputFormat } from './formats.js';

export interface ReadOptions {
  output: OutputFormat;
}

/** What a version runs, in one cell: its chart, image or operator types. */
export const artifactOf = (
  v: Pick<FunctionVersionFieldsFragment, 'workloadType' | 'helmChart' | 'containerImage' | 'operatorTypes'>,
): string =>
  v.workloadType === 'HELM'
    ? (v.helmChart ?? '')
    : v.workloadType === 'CONTAINER'
      ? (v.containerImage ?? '')
      : (v.operatorTypes ?? []).join(',');

const newest = <T extends { createdAt: string }>(xs: readonly T[]): T | undefined =>
  [...xs].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];

export async function list(ctx: Ctx, opts: ReadOptions): Promise<number> {
  const { functions } = await (await ctx.client()).query(FunctionsDocument);
  ctx.print(opts.output, functions, () =>
    table(
      ['ID', 'NAME', 'VERSIONS', 'LATEST VERSION', 'STATUS', 'WORKLOAD', 'CREATED'],
      functions.map((f) => {
        const v = newest(f.versions);
        return [
          f.id,
          f.name,
          String(f.versions.length),
          v?.id ?? '',
          v?.status ?? '',
          v?.workloadType ?? '',
          when(v?.createdAt),
        ];
      }),
      ctx.colors,
    ),
  );
  return EXIT.ok;
}

export async function get(ctx: Ctx, id: string, opts: ReadOptions): Promise<number> {
  const fn = found((await (await ctx.client()).query(FunctionDocument, { id })).function, 'function', id);
  ctx.print(
    opts.output,
    fn,
    () =>
      `${details(
        [
          ['ID', fn.id],
          ['Name', fn.name],
          ['Tenant', fn.ncaId],
        ],
        ctx.colors,
      )}\n${table(
        ['VERSION', 'STATUS', 'WORKLOAD', 'ARTIFACT', 'CREATED', 'GPU SPECIFICATIONS'],
        fn.versions.map((v) => [
          v.id,
          v.status,
          v.workloadType,
          artifactOf(v),
          when(v.createdAt),
          (v.deployment?.gpuSpecifications ?? [])
            .map((s) => `${s.id} (${s.gpu} ${s.minInstances}-${s.maxInstances})`)
            .join('\n'),
        ]),
        ctx.colors,
      )}`,
  );
  return EXIT.ok;
}

/** `functions undeploy`: the version's instances terminate; it ends INACTIVE (the status says how far it got). */
export async function undeploy(
  ctx: Ctx,
  versionId: string,
  opts: ReadOptions & { graceful?: boolean },
): Promise<number> {
  const v = (
    await (await ctx.client()).mutate(UndeployFunctionVersionDocument, { versionId, graceful: !!opts.graceful })
  ).undeployFunctionVersion;
  ctx.print(opts.output, v, () => `function version ${v.id} undeploying: ${v.status}\n`);
  return EXIT.ok;
}

export interface CreateOptions extends ReadOptions {
  function?: string;
  helmChart?: string;
  helmService?: string;
  containerImage?: string;
  arg: string[];
  env: string[];
  inferenceUrl?: string;
  inferencePort?: number;
  healthUri?: string;
  healthPort?: number;
  healthProtocol?: string;
  healthTimeout?: string;
  healthStatus?: number;
}

/** The workload flags `functions create` and `tasks create` share. */
export type WorkloadFlags = Pick<CreateOptions, 'helmChart' | 'helmService' | 'containerImage' | 'arg' | 'env'>;

/** A Helm or container workload from the flags; `missing` is the hint when neither is given. */
export function workloadOf(
  o: WorkloadFlags,
  missing = 'operator workloads: `nvcf operator submit NAME -f manifests.yaml`',
): Pick<CreateFunctionInput, 'helm' | 'container'> {
  if (o.helmChart && o.containerImage)
    throw new UsageError('--helm-chart and --container-image are exclusive: it runs one workload');
  if (o.helmChart) {
    if (!o.helmService)
      throw new UsageError('--helm-chart needs --helm-service (the Service the worker sidecar sends requests to)');
    if (o.arg.length || o.env.length) throw new UsageError('--arg and --env are for --container-image');
    return { helm: { chart: o.helmChart, serviceName: o.helmService } };
  }
  if (o.containerImage) {
    if (o.helmService) throw new UsageError('--helm-service is for --helm-chart');
    const environment = o.env.map((kv) => {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new UsageError(`--env ${kv}: expected KEY=VALUE`);
      return { key: kv.slice(0, eq), value: kv.slice(eq + 1) };
    });
    return {
      container: {
        image: o.containerImage,
        ...(o.arg.length ? { args: o.arg } : {}),
        ...(environment.length ? { environment } : {}),
      },
    };
  }
  throw new UsageError('say what it runs: --helm-chart URI --helm-service NAME, or --container-image IMAGE', missing);
}

function healthOf(o: CreateOptions): CreateFunctionInput['health'] {
  if (o.healthUri === undefined && o.healthPort === undefined) {
    if (o.healthProtocol || o.healthTimeout || o.healthStatus !== undefined)
      throw new UsageError('--health-* options need --health-uri and --health-port');
    return undefined;
  }
  if (o.healthUri === undefined || o.healthPort === undefined)
    throw new UsageError('a health check needs both --health-uri and --health-port');
  const protocol: string = o.healthProtocol ?? 'HTTP';
  if (protocol !== 'HTTP' && protocol !== 'gRPC') throw new UsageError(`--health-protocol ${protocol}: HTTP or gRPC`);
  return {
    uri: o.healthUri,
    port: o.healthPort,
    protocol,
    ...(o.healthTimeout ? { timeout: o.healthTimeout } : {}),
    ...(o.healthStatus !== undefined ? { expectedStatusCode: o.healthStatus } : {}),
  };
}

/** The version a create returned, as the table shows it. */
export function createdTable(
  ctx: Ctx,
  v: FunctionVersionFieldsFragment & { function: { id: string; name: string } },
  more: [string, string][] = [],
): string {
  return details(
    [
      ['Function', `${v.function.id} (${v.function.name})`],
      ['Version', v.id],
      ['Status', v.status],
      ['Workload', v.workloadType],
      ['Artifact', artifactOf(v)],
      ['Created', when(v.createdAt)],
      ...more,
    ],
    ctx.colors,
  );
}

/** A new version keeps its function's name: with --function, NAME may be left out. */
export async function nameFor(ctx: Ctx, name: string | undefined, functionId: string | undefined): Promise<string> {
  if (name) return name;
  if (!functionId) throw new UsageError('a new function needs a NAME (or --function ID to add a version to one)');
  return found(
    (await (await ctx.client()).query(FunctionDocument, { id: functionId })).function,
    'function',
    functionId,
  ).name;
}

export async function create(ctx: Ctx, name: string | undefined, opts: CreateOptions): Promise<number> {
  const workload = workloadOf(opts);
  const input: CreateFunctionInput = {
    name: await nameFor(ctx, name, opts.function),
    ...workload,
    ...(opts.inferenceUrl !== undefined ? { inferenceUrl: opts.inferenceUrl } : {}),
    ...(opts.inferencePort !== undefined ? { inferencePort: opts.inferencePort } : {}),
    ...(healthOf(opts) ? { health: healthOf(opts) } : {}),
  };
  const client = await ctx.client();
  const v = opts.function
    ? (await client.mutate(CreateFunctionVersionDocument, { functionId: opts.function, input })).createFunctionVersion
    : (await client.mutate(CreateFunctionDocument, { input })).createFunction;
  ctx.print(opts.output, v, () => createdTable(ctx, v));
  return EXIT.ok;
}
