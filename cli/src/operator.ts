import {
  CreateFunctionDocument,
  CreateFunctionVersionDocument,
  OperatorTypesDocument,
  UpdateGpuSpecificationDocument,
  type CreateFunctionInput,
  type NvcfClient,
} from '@nvcf/client';
import type { Ctx } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { readPatches } from './deploy.js';
import { createdTable, nameFor } from './functions.js';
import { explainConflict, submitAndReport, type SubmitOptions } from './gpu-spec.js';
import type { OutputFormat } from './formats.js';
import { readYamlDocuments } from './values.js';

export interface Manifest {
  apiVersion: string;
  kind: string;
  [key: string]: unknown;
}

/** Every manifest of the files: each YAML document, a `kind: List` contributing its items. */
export async function readManifests(cwd: string, files: string[]): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const f of files) {
    for (const [i, doc] of (await readYamlDocuments(cwd, f, '-f')).entries()) {
      const o = doc as Record<string, unknown>;
      const items =
        o && typeof o === 'object' && o.kind === 'List' && Array.isArray(o.items) ? (o.items as unknown[]) : [doc];
      for (const m of items) {
        const x = m as Partial<Manifest> | null;
        if (
          !x ||
          typeof x !== 'object' ||
          Array.isArray(x) ||
          typeof x.apiVersion !== 'string' ||
          typeof x.kind !== 'string'
        ) {
          throw new UsageError(`-f ${f}: document ${i + 1} is not a Kubernetes object (it needs apiVersion and kind)`);
        }
        out.push(x as Manifest);
      }
    }
  }
  if (!out.length) throw new UsageError(`-f ${files.join(', ')}: no manifests`);
  return out;
}

/** The operator types given, or else the registry's types that drive the manifests' kinds. */
export async function operatorTypesFor(
  client: NvcfClient,
  manifests: readonly Manifest[],
  given: string[],
): Promise<string[]> {
  if (given.length) return given;
  const { operatorTypes: registry } = await client.query(OperatorTypesDocument);
  const found = new Set<string>();
  for (const m of manifests)
    for (const t of registry) if (t.kinds.includes(m.kind) && t.apiVersions.includes(m.apiVersion)) found.add(t.name);
  if (!found.size)
    throw new UsageError(
      `no operator type drives the kinds of these manifests (${[...new Set(manifests.map((m) => `${m.apiVersion}/${m.kind}`))].join(', ')})`,
      `pass --operator-type; the registry has ${registry.map((t) => `${t.name} (${t.kinds.join(', ')})`).join('; ')}`,
    );
  return [...found].sort();
}

export interface SubmitManifestOptions {
  output: OutputFormat;
  file: string[];
  operatorType: string[];
  function?: string;
  inferenceUrl?: string;
  inferencePort?: number;
}

/** `operator submit NAME -f manifests.yaml`: an operator function (or a new version of one). */
export async function submit(ctx: Ctx, name: string | undefined, opts: SubmitManifestOptions): Promise<number> {
  const manifests = await readManifests(ctx.io.cwd, opts.file);
  const client = await ctx.client();
  const functionName = await nameFor(ctx, name, opts.function);
  const operatorTypes = await operatorTypesFor(client, manifests, opts.operatorType);
  const input: CreateFunctionInput = {
    name: functionName,
    operator: { operatorTypes, manifests },
    ...(opts.inferenceUrl !== undefined ? { inferenceUrl: opts.inferenceUrl } : {}),
    ...(opts.inferencePort !== undefined ? { inferencePort: opts.inferencePort } : {}),
  };
  const v = opts.function
    ? (await client.mutate(CreateFunctionVersionDocument, { functionId: opts.function, input })).createFunctionVersion
    : (await client.mutate(CreateFunctionDocument, { input })).createFunction;
  ctx.print(opts.output, v, () =>
    createdTable(ctx, v, [
      [
        'Manifests',
        manifests.map((m) => `${m.kind}/${(m.metadata as { name?: string } | undefined)?.name ?? '?'}`).join(', '),
      ],
    ]),
  );
  return EXIT.ok;
}

export interface PatchOptions extends SubmitOptions {
  file: string[];
}

/**
 * `operator patch SPEC -f patch.yaml`: a new revision whose merge patches are the files' documents.
 * A revision is whole: the previous revision's patches are not kept.
 */
export async function patch(ctx: Ctx, specId: string, opts: PatchOptions): Promise<number> {
  const patches = await readPatches(ctx.io.cwd, opts.file, '-f');
  if (!patches.length) throw new UsageError(`-f ${opts.file.join(', ')}: no merge patches`);
  const client = await ctx.client();
  const send = async () => {
    try {
      return (
        await client.mutate(UpdateGpuSpecificationDocument, {
          id: specId,
          input: { revision: { manifestMergePatches: patches } },
        })
      ).updateGpuSpecification;
    } catch (err) {
      return explainConflict(err, specId, undefined);
    }
  };
  return submitAndReport(ctx, specId, send, opts);
}
