import {
  CliSpecRevisionDocument,
  GpuSpecificationDocument,
  RollbackGpuSpecificationDocument,
  UpdateGpuSpecificationDocument,
  type RevisionFieldsFragment,
  type UpdateGpuSpecificationInput,
} from '@nvcf/client';
import { found, type Ctx } from './context.js';
import { EXIT, ExplainedError, UsageError, isNvcfError } from './errors.js';
import {
  block,
  details,
  renderData,
  renderStreamItem,
  short,
  streamFormat,
  statusWord,
  table,
  toYaml,
  when,
} from './output.js';
import type { OutputFormat } from './formats.js';
import { composeConfiguration, readConfigurationInputs } from './values.js';

export interface ReadOptions {
  output: OutputFormat;
}
export interface SubmitOptions extends ReadOptions {
  watch?: boolean;
}

const revisionText = (r: RevisionFieldsFragment | null | undefined, ctx: Ctx) =>
  r
    ? `${r.id} ${statusWord(r.status, ctx.colors)} (created ${when(r.createdAt)}${r.appliedAt ? `, applied ${when(r.appliedAt)}` : ''}${r.deadline && !r.appliedAt ? `, deadline ${when(r.deadline)}` : ''})`
    : undefined;

export async function get(ctx: Ctx, id: string, opts: ReadOptions): Promise<number> {
  const s = found(
    (await (await ctx.client()).query(GpuSpecificationDocument, { id })).gpuSpecification,
    'GPU specification',
    id,
  );
  ctx.print(opts.output, s, () => {
    const fv = s.deployment.functionVersion;
    const head = details(
      [
        ['ID', s.id],
        ['Function', `${fv.function.id} (${fv.function.name})`],
        ['Version', fv.id],
        ['GPU', `${s.gpu} ${s.instanceType}`],
        ['Instances', `min ${s.minInstances}, max ${s.maxInstances}, ${s.instances.length} running`],
        ['Max concurrency', s.maxRequestConcurrency],
        ['Clusters', s.clusters.join(', ')],
        ['Regions', s.regions.join(', ')],
        ['Attributes', s.attributes.join(', ')],
        ['Latest revision', revisionText(s.latestRevision, ctx)],
        ['Supersedes', s.latestRevision?.supersedes],
        ['Failure', s.latestRevision?.failureReason],
        [
          'Last applied',
          s.lastAppliedRevision && s.lastAppliedRevision.id !== s.latestRevision?.id
            ? revisionText(s.lastAppliedRevision, ctx)
            : s.lastAppliedRevision
              ? 'the latest revision'
              : 'none',
        ],
      ],
      ctx.colors,
    );
    const latest = s.latestRevision;
    const body = latest?.manifestMergePatches?.length
      ? block('Manifest merge patches', latest.manifestMergePatches, ctx.colors)
      : block('Configuration', s.configuration, ctx.colors);
    const instances = s.instances.length
      ? table(
          ['INSTANCE', 'CLUSTER', 'STATE', 'REVISION', 'UPDATED'],
          s.instances.map((i) => [i.id, i.cluster.id, i.state, i.revisionId ?? '-', when(i.updatedAt)]),
          ctx.colors,
        )
      : 'no instances\n';
    return `${head}\n${body}\n${instances}`;
  });
  return EXIT.ok;
}

type Submitted = {
  id: string;
  minInstances?: number;
  maxInstances?: number;
  latestRevision: RevisionFieldsFragment | null;
  lastAppliedRevision: RevisionFieldsFragment | null;
};

function printSubmitted(ctx: Ctx, s: Submitted, opts: SubmitOptions, newRevision: boolean) {
  const r = s.latestRevision;
  if (opts.output === 'id' && !opts.watch) ctx.out(`${s.id}\n`);
  else if (opts.output !== 'table')
    ctx.out(
      opts.watch
        ? renderStreamItem(streamFormat(opts.output), { type: 'submitted', gpuSpecification: s })
        : renderData(streamFormat(opts.output), s),
    );
  else if (r && newRevision)
    ctx.out(
      `revision ${r.id} submitted: ${statusWord(r.status, ctx.colors)}${r.deadline ? `, deadline ${when(r.deadline)}` : ''}${r.supersedes ? `; supersedes ${r.supersedes}, which was still rolling out` : ''}\n`,
    );
  else
    ctx.out(
      `GPU specification ${s.id} updated: min ${s.minInstances ?? '-'}, max ${s.maxInstances ?? '-'} instances\n`,
    );
}

/**
 * Submits (`send`) and prints what it returned; with --watch, follows the rollout it started, the
 * status stream opened first so that no transition of it is missed.
 */
export async function submitAndReport(
  ctx: Ctx,
  specId: string,
  send: () => Promise<Submitted>,
  opts: SubmitOptions,
  newRevision = true,
): Promise<number> {
  if (opts.watch) {
    const { watchRollout } = await import('./rollout.js');
    return watchRollout(ctx, specId, opts.output, {
      submit: async () => printSubmitted(ctx, await send(), opts, newRevision),
    });
  }
  const s = await send();
  printSubmitted(ctx, s, opts, newRevision);
  // a person at a terminal gets the next step; a script reading the output does not need it
  if (opts.output === 'table' && s.latestRevision && newRevision && ctx.live)
    ctx.out(ctx.colors.dim(`follow it: nvcf rollout status ${s.id} --watch\n`));
  return EXIT.ok;
}

/** CONFLICT on an update: another revision won the race; say so in the caller's terms. */
export function explainConflict(err: unknown, specId: string, basedOn: string | undefined): never {
  if (isNvcfError(err) && err.code === 'CONFLICT') {
    throw new ExplainedError(
      'CONFLICT',
      `someone else submitted a revision of GPU specification ${specId} since this command read it, or at the same time${basedOn ? ` (this one was based on ${basedOn})` : ''}; nothing of this command was stored`,
      EXIT.api,
      `read the latest revision (nvcf gpu-spec get ${specId}) and run the command again`,
    );
  }
  throw err;
}

export interface UpdateOptions extends SubmitOptions {
  set: string[];
  setString: string[];
  values: string[];
  min?: number;
  max?: number;
  dryRun?: boolean;
}

/**
 * `gpu-spec update`: the API takes the whole configuration, so --set reads the latest revision's
 * and changes only the keys named; --values files replace it (then --set applies on top).
 */
export async function update(ctx: Ctx, id: string, opts: UpdateOptions): Promise<number> {
  const changesConfig = opts.set.length > 0 || opts.setString.length > 0 || opts.values.length > 0;
  if (!changesConfig && opts.min === undefined && opts.max === undefined)
    throw new UsageError('nothing to update: pass --set key=value, --values FILE, --min or --max');
  if (opts.dryRun && !changesConfig)
    throw new UsageError('--dry-run shows a configuration: use it with --set or --values');
  const inputs = await readConfigurationInputs(ctx.io.cwd, opts.values, opts.set, opts.setString);
  const client = await ctx.client();
  const input: UpdateGpuSpecificationInput = {
    ...(opts.min !== undefined ? { minInstances: opts.min } : {}),
    ...(opts.max !== undefined ? { maxInstances: opts.max } : {}),
  };
  let basedOn: string | undefined;
  if (changesConfig) {
    const spec = found((await client.query(CliSpecRevisionDocument, { id })).gpuSpecification, 'GPU specification', id);
    if (spec.deployment.functionVersion.workloadType === 'OPERATOR')
      throw new UsageError(
        `GPU specification ${id} runs an operator workload: it changes with merge patches`,
        `nvcf operator patch ${id} -f patch.yaml`,
      );
    basedOn = spec.latestRevision?.id;
    const configuration = composeConfiguration(spec.latestRevision?.configuration, inputs);
    input.revision = { configuration };
    // the base we changed: a revision stored after our read makes the update a CONFLICT, not a silent replacement
    if (basedOn) input.expectedRevisionId = basedOn;
    if (opts.dryRun) {
      ctx.print(
        opts.output,
        configuration,
        () =>
          `${ctx.colors.dim(`# the configuration a new revision of ${id} would get${basedOn ? ` (from ${short(basedOn)})` : ''}`)}\n${toYaml(configuration)}`,
      );
      return EXIT.ok;
    }
  }
  const send = async () => {
    try {
      return (await client.mutate(UpdateGpuSpecificationDocument, { id, input })).updateGpuSpecification;
    } catch (err) {
      return explainConflict(err, id, basedOn);
    }
  };
  return submitAndReport(ctx, id, send, opts, changesConfig);
}

/** `gpu-spec rollback`: a new revision with the last applied configuration (a roll forward). */
export async function rollback(ctx: Ctx, id: string, opts: SubmitOptions): Promise<number> {
  const client = await ctx.client();
  const send = async () => {
    try {
      return (await client.mutate(RollbackGpuSpecificationDocument, { id })).rollbackGpuSpecification;
    } catch (err) {
      return explainConflict(err, id, undefined);
    }
  };
  return submitAndReport(ctx, id, send, opts);
}
