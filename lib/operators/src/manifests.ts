import { Ajv, type ValidateFunction } from 'ajv';
import { fail } from '@nvcf/errors';
import { field } from './values.js';
import type { KindSpec, OperatorRegistry } from './registry.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const ajv = new Ajv({ allErrors: false, strict: false });
const compiled = new WeakMap<KindSpec, ValidateFunction>();

const invalid = (where: string, index: number, kind: unknown, rule: string) =>
  fail('INVALID_MANIFEST', `${where}[${index}] (kind ${typeof kind === 'string' ? kind : 'unknown'}): ${rule}`, {
    index,
    kind,
    rule,
  });

/** Checks every manifest against the declared operator types; the first failure is reported. */
export function validateManifests(
  manifests: unknown[],
  registry: OperatorRegistry,
  operatorTypes: string[] | undefined,
  where = 'manifests',
) {
  manifests.forEach((m, i) => {
    if (typeof m !== 'object' || m === null || Array.isArray(m))
      throw invalid(where, i, undefined, 'a manifest must be a JSON object');
    const o = m as Record<string, unknown>;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string')
      throw invalid(where, i, o.kind, 'apiVersion and kind are required strings');
    const found = registry.kindOf(o.apiVersion, o.kind, operatorTypes);
    if (!found) {
      const other = registry.kindOf(o.apiVersion, o.kind);
      const rule = other
        ? `${o.apiVersion}/${o.kind} belongs to operator type '${other.type.name}', which is not declared in operatorTypes (${(operatorTypes ?? []).join(', ')})`
        : `${o.apiVersion}/${o.kind} is not on the allowlist of the declared operator types (${(operatorTypes ?? []).join(', ')})`;
      throw invalid(where, i, o.kind, rule);
    }
    const name = field(o.metadata, 'name');
    if (typeof name !== 'string' || !DNS_LABEL.test(name)) {
      throw invalid(
        where,
        i,
        o.kind,
        `metadata.name must be a DNS-1123 label (lower-case letters, digits, '-', at most 63 characters; got ${JSON.stringify(name ?? null)})`,
      );
    }
    if (field(o.metadata, 'namespace') !== undefined)
      throw invalid(where, i, o.kind, 'metadata.namespace must not be set: the platform chooses the namespace');
    if (found.spec.schema) {
      let check = compiled.get(found.spec);
      if (!check) compiled.set(found.spec, (check = ajv.compile(found.spec.schema)));
      const kind = o.kind;
      if (!check(o)) {
        const e = check.errors?.[0];
        throw invalid(where, i, kind, `schema: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`);
      }
    }
  });
}
