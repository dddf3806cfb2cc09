import type { StatusEvent, WatchFilter } from '@nvcf/client';
import type { Ctx } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { renderStreamItem, streamFormat, when } from './output.js';
import type { OutputFormat } from './formats.js';

export interface WatchOptions {
  output: OutputFormat;
  function?: string;
  functionVersion?: string;
  gpuSpec?: string;
  instance?: string;
  after?: string;
  snapshot?: boolean;
}

/** `2026-11-30T19:00:01Z instance-123 cluster-a UPDATING rev-1 → rev-2 (from ACTIVE)`: the revision it runs, and where it is going. */
export function eventLine(e: StatusEvent): string {
  const why = e.kind === 'SNAPSHOT' ? ' (current state)' : e.previousState ? ` (from ${e.previousState})` : '';
  const to = e.targetRevisionId ? ` \u2192 ${e.targetRevisionId}` : '';
  return `${when(e.at)} ${e.instance.id} ${e.instance.cluster.id} ${e.state} ${e.revisionId ?? '-'}${to}${why}${e.message ? `: ${e.message}` : ''}\n`;
}

/**
 * `nvcf watch`: every status event of the matching instances until Ctrl-C, resumed by itself
 * across broken connections; on Ctrl-C, stderr says how to resume where it stopped.
 */
export async function watch(ctx: Ctx, opts: WatchOptions): Promise<number> {
  const filter: WatchFilter = {
    ...(opts.function ? { functionId: opts.function } : {}),
    ...(opts.functionVersion ? { versionId: opts.functionVersion } : {}),
    ...(opts.gpuSpec ? { gpuSpecificationId: opts.gpuSpec } : {}),
    ...(opts.instance ? { instanceId: opts.instance } : {}),
  };
  if (!Object.keys(filter).length)
    throw new UsageError('say what to watch: --function ID, --function-version ID, --gpu-spec ID or --instance ID');
  const client = await ctx.client();
  let last = opts.after;
  const resume = () => {
    const flags = [
      opts.function && `--function ${opts.function}`,
      opts.functionVersion && `--function-version ${opts.functionVersion}`,
      opts.gpuSpec && `--gpu-spec ${opts.gpuSpec}`,
      opts.instance && `--instance ${opts.instance}`,
    ]
      .filter(Boolean)
      .join(' ');
    if (last) ctx.err(`resume with: nvcf watch ${flags} --after ${last}\n`);
  };
  const format = opts.output === 'table' ? 'table' : streamFormat(opts.output);
  for await (const item of client.watch(filter, {
    after: opts.after ?? null,
    snapshot: !!opts.snapshot,
    signal: ctx.signal,
  })) {
    switch (item.type) {
      case 'event':
        if (item.event.kind === 'TRANSITION') last = item.event.cursor;
        ctx.out(format === 'table' ? eventLine(item.event) : renderStreamItem(format, item.event));
        break;
      case 'reconnecting':
        ctx.err(
          `reconnecting (attempt ${item.attempt}, in ${(item.delayMs / 1000).toFixed(1)} s): ${item.error.code}: ${item.error.message}\n`,
        );
        break;
      case 'connected':
        if (item.attempt > 0) ctx.err(`resumed${item.after ? ` after ${item.after}` : ''}\n`);
        break;
      case 'lag':
        ctx.err(
          `warning: fell behind: ${item.skippedEvents} transitions of ${item.instanceId} were skipped; replay them with --after ${item.resumeAfter}\n`,
        );
        break;
      case 'expired':
        ctx.err(`warning: ${item.error.message}; starting again from the current state\n`);
        break;
    }
  }
  if (ctx.signal.aborted) {
    resume();
    return EXIT.interrupted;
  }
  return EXIT.ok;
}
