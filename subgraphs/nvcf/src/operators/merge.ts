import { fail } from '@nvcf/errors';
import type { Obj, OperatorRegistry } from '@nvcf/operators';
import { field as prop, mergePatch, show } from '@nvcf/operators';
import { validateManifests } from '@nvcf/operators';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies merge patches to base manifests. A patch names its target by kind and
 * metadata.name, or applies to the single manifest when there is one. A patch may not
 * change a manifest's kind, name or namespace. The result is validated again.
 */
export function mergeManifests(
  base: Obj[],
  patches: unknown[],
  registry: OperatorRegistry,
  field: string,
  operatorTypes?: string[],
): Obj[] {
  if (!patches.length) return base;
  const out = base.map((m) => structuredClone(m));
  patches.forEach((patch, i) => {
    const where = `${field}[${i}]`;
    if (!isObj(patch))
      throw fail('INVALID_MANIFEST', `${where} must be a JSON object (an RFC 7396 merge patch)`, { index: i });
    const kind = patch.kind as string | undefined;
    const name = prop(patch.metadata, 'name') as string | undefined;
    let idx: number;
    if (kind !== undefined || name !== undefined) {
      idx = out.findIndex((m) => m.kind === kind && prop(m.metadata, 'name') === name);
      if (idx < 0)
        throw fail(
          'INVALID_MANIFEST',
          `${where} targets ${kind ?? '?'} '${name ?? '?'}', which is not among the manifests; name the target by kind and metadata.name`,
          { index: i, kind },
        );
    } else if (out.length === 1) {
      idx = 0;
    } else {
      throw fail(
        'INVALID_MANIFEST',
        `${where} must name its target by kind and metadata.name: there are ${out.length} manifests`,
        { index: i },
      );
    }
    const before = out[idx];
    const after = mergePatch(before, patch) as Obj;
    for (const [what, get] of [
      ['kind', (m: Obj) => m.kind],
      ['apiVersion', (m: Obj) => m.apiVersion],
      ['metadata.name', (m: Obj) => prop(m.metadata, 'name')],
      ['metadata.namespace', (m: Obj) => prop(m.metadata, 'namespace')],
    ] as const) {
      if (JSON.stringify(get(before) ?? null) !== JSON.stringify(get(after) ?? null)) {
        throw fail(
          'INVALID_MANIFEST',
          `${where} would change ${what} of ${show(before.kind)} '${show(prop(before.metadata, 'name'))}'; a patch may not rename or move a manifest`,
          { index: i, kind: before.kind },
        );
      }
    }
    out[idx] = after;
  });
  validateManifests(out, registry, operatorTypes, `${field} (merged)`);
  return out;
}
