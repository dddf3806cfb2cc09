import { fail } from '@nvcf/errors';
import type { Obj, OperatorRegistry } from '@nvcf/operators';
import { ManifestPatchRejected, mergeManifestPatches, validateManifests } from '@nvcf/operators';

/**
 * Applies merge patches to base manifests (the rules are lib/operators' mergeManifestPatches,
 * which the MiniService controller applies too) and validates the result again.
 */
export function mergeManifests(
  base: Obj[],
  patches: unknown[],
  registry: OperatorRegistry,
  field: string,
  operatorTypes?: string[],
): Obj[] {
  if (!patches.length) return base;
  let out: Obj[];
  try {
    out = mergeManifestPatches(base, patches, field);
  } catch (err) {
    if (!(err instanceof ManifestPatchRejected)) throw err;
    throw fail('INVALID_MANIFEST', err.message, {
      index: err.index,
      ...(err.kind !== undefined ? { kind: err.kind } : {}),
    });
  }
  validateManifests(out, registry, operatorTypes, `${field} (merged)`);
  return out;
}
