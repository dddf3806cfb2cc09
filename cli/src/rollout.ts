import type { Ctx } from './context.js';
import { EXIT } from './errors.js';
import type { OutputFormat } from './formats.js';
import { streamFormat } from './output.js';
import { readRollout, type FollowOptions } from './rollout-follow.js';
import { RolloutModel } from './rollout-model.js';
import { statusDocument, statusText } from './rollout-render.js';

export interface StatusOptions {
  output: OutputFormat;
  watch?: boolean;
}

/**
 * Follows the rollout of a GPU specification's latest revision to its end, as `kubectl rollout
 * status` does: exit 0 once APPLIED, 1 once FAILED or past its deadline, 130 when interrupted.
 */
export async function watchRollout(
  ctx: Ctx,
  specId: string,
  output: OutputFormat,
  opts?: FollowOptions,
): Promise<number> {
  // the terminal libraries load only for a watch
  const [{ follow }, { linesView, liveView, streamView }] = await Promise.all([
    import('./rollout-follow.js'),
    import('./rollout-views.js'),
  ]);
  const view = output !== 'table' ? streamView(ctx, streamFormat(output)) : ctx.live ? liveView(ctx) : linesView(ctx);
  const { end } = await follow(ctx, specId, view, opts);
  return end === 'interrupted' ? EXIT.interrupted : end.result === 'APPLIED' ? EXIT.ok : EXIT.rolloutFailed;
}

/** `nvcf rollout status SPEC [--watch]`: without --watch, where it stands now (exit 1 if FAILED). */
export async function status(ctx: Ctx, specId: string, opts: StatusOptions): Promise<number> {
  if (opts.watch) return watchRollout(ctx, specId, opts.output);
  const m = new RolloutModel(specId);
  m.applySnapshot(await readRollout(await ctx.client(), specId));
  ctx.print(opts.output, statusDocument(m), () =>
    statusText(m, ctx.colors, ctx.live, ctx.io.stdout.columns ?? 80, Date.now()),
  );
  return m.revision?.status === 'FAILED' ? EXIT.rolloutFailed : EXIT.ok;
}
