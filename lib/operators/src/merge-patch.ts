import { field, isObj, show, type Obj } from './values.js';

/** RFC 7396 JSON Merge Patch: objects merge recursively, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const base: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  return base;
}

/** A merge patch that cannot be applied to the manifests; `index` is its place in the list. */
export class ManifestPatchRejected extends Error {
  override name = 'ManifestPatchRejected';
  constructor(
    message: string,
    readonly index: number,
    readonly kind?: unknown,
  ) {
    super(message);
  }
}

/**
 * Applies merge patches to base manifests. A patch names its target by kind and
 * metadata.name, or applies to the single manifest when there is one. A patch may not
 * change a manifest's kind, name or namespace. `listName` names the list in messages.
 */
export function mergeManifestPatches(base: Obj[], patches: unknown[], listName: string): Obj[] {
  if (!patches.length) return base;
  const out = base.map((m) => structuredClone(m));
  patches.forEach((patch, i) => {
    const where = `${listName}[${i}]`;
    if (!isObj(patch)) throw new ManifestPatchRejected(`${where} must be a JSON object (an RFC 7396 merge patch)`, i);
    const kind = patch.kind as string | undefined;
    const name = field(patch.metadata, 'name') as string | undefined;
    let idx: number;
    if (kind !== undefined || name !== undefined) {
      idx = out.findIndex((m) => m.kind === kind && field(m.metadata, 'name') === name);
      if (idx < 0)
        throw new ManifestPatchRejected(
          `${where} targets ${kind ?? '?'} '${name ?? '?'}', which is not among the manifests; name the target by kind and metadata.name`,
          i,
          kind,
        );
    } else if (out.length === 1) {
      idx = 0;
    } else {
      throw new ManifestPatchRejected(
        `${where} must name its target by kind and metadata.name: there are ${out.length} manifests`,
        i,
      );
    }
    const before = out[idx];
    const after = mergePatch(before, patch) as Obj;
    for (const [what, get] of [
      ['kind', (m: Obj) => m.kind],
      ['apiVersion', (m: Obj) => m.apiVersion],
      ['metadata.name', (m: Obj) => field(m.metadata, 'name')],
      ['metadata.namespace', (m: Obj) => field(m.metadata, 'namespace')],
    ] as const) {
      if (JSON.stringify(get(before) ?? null) !== JSON.stringify(get(after) ?? null)) {
        throw new ManifestPatchRejected(
          `${where} would change ${what} of ${show(before.kind)} '${show(field(before.metadata, 'name'))}'; a patch may not rename or move a manifest`,
          i,
          before.kind,
        );
      }
    }
    out[idx] = after;
  });
  return out;
}
