import { ClustersDocument } from '@nvcf/client';
import type { Ctx } from './context.js';
import { EXIT } from './errors.js';
import { table } from './output.js';
import type { OutputFormat } from './formats.js';

/** Where the caller may deploy: the GPUs and instance types `nvcf deploy` takes. */
export async function list(ctx: Ctx, opts: { output: OutputFormat }): Promise<number> {
  const { clusters } = await (await ctx.client()).query(ClustersDocument);
  ctx.print(opts.output, clusters, () =>
    table(
      ['ID', 'NAME', 'REGIONS', 'GPU', 'INSTANCE TYPES', 'ATTRIBUTES'],
      clusters.flatMap((c) =>
        (c.gpus.length ? c.gpus : [{ name: '', instanceTypes: [] }]).map((g, i) => [
          i ? '' : c.id,
          i ? '' : c.name,
          i ? '' : c.regions.join(','),
          g.name,
          g.instanceTypes.join(','),
          i ? '' : c.attributes.join(','),
        ]),
      ),
      ctx.colors,
    ),
  );
  return EXIT.ok;
}
