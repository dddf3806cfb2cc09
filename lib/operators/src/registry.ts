import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface ReadyRule {
  /** dotted path into the object, e.g. status.state */
  path: string;
  /** ready when the value is one of these; an empty list means "exists" */
  values: (string | boolean | number)[];
  /** ready when the number is at least this (e.g. status.readyReplicas ≥ 1) */
  atLeast?: number;
}

export interface KindSpec {
  apiVersion: string;
  kind: string;
  ready: ReadyRule;
  /** dotted paths (`*` for every key) of pod metadata objects that get NVCF labels too */
  podTemplates?: string[];
  /** JSON Schema (ajv) of the fields we rely on */
  schema?: Record<string, unknown>;
}

export interface RbacRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

export interface OperatorType {
  name: string;
  clusterAttribute: string;
  kinds: KindSpec[];
  /** Kubernetes types the manifests may also contain (Services, ConfigMaps) */
  extraTypes: KindSpec[];
  /** objects the operator creates for the applied ones, found by NVCF labels */
  secondary: KindSpec[];
  rbac: { kind: string; name: string; rules: RbacRule[] }[];
}

export interface OperatorRegistry {
  types: OperatorType[];
  get(name: string): OperatorType | undefined;
  /** the kind spec for an apiVersion/kind among the given types (any type when omitted) */
  kindOf(apiVersion: string, kind: string, among?: string[]): { type: OperatorType; spec: KindSpec } | undefined;
}

export class RegistryRejected extends Error {
  override name = 'RegistryRejected';
  constructor(readonly findings: string[]) {
    super(`operator registry refused:\n${findings.map((f) => `- ${f}`).join('\n')}`);
  }
}

/** The onboarding gate: no wildcard in apiGroups, resources or verbs of any RBAC rule. */
export function rbacFindings(types: OperatorType[]): string[] {
  const out: string[] = [];
  for (const t of types) {
    for (const role of t.rbac ?? []) {
      role.rules.forEach((rule, i) => {
        for (const field of ['apiGroups', 'resources', 'verbs'] as const) {
          if ((rule[field] ?? []).some((v) => v.includes('*'))) {
            out.push(`operator type '${t.name}', ${role.kind} '${role.name}', rule ${i}: wildcard '*' in ${field} (${JSON.stringify(rule[field])}); list the exact ${field} instead`);
          }
        }
      });
    }
  }
  return out;
}

function shapeFindings(raw: unknown): string[] {
  const types = (raw as { operatorTypes?: unknown })?.operatorTypes;
  if (!Array.isArray(types)) return ['the file must have a top-level list `operatorTypes`'];
  const out: string[] = [];
  types.forEach((t: any, i) => {
    if (typeof t?.name !== 'string' || !t.name) out.push(`operatorTypes[${i}]: name is required`);
    if (typeof t?.clusterAttribute !== 'string' || !t.clusterAttribute) out.push(`operatorTypes[${i}] (${t?.name}): clusterAttribute is required`);
    if (!Array.isArray(t?.kinds) || !t.kinds.length) out.push(`operatorTypes[${i}] (${t?.name}): kinds must list at least one apiVersion/kind`);
    for (const k of [...(t?.kinds ?? []), ...(t?.extraTypes ?? []), ...(t?.secondary ?? [])]) {
      if (!k?.ready?.path) out.push(`operator type '${t?.name}', kind ${k?.kind}: ready.path is required (the status mapping)`);
      else if (!Array.isArray(k.ready.values) && k.ready.atLeast === undefined) out.push(`operator type '${t?.name}', kind ${k?.kind}: ready needs values (a list) or atLeast (a number)`);
    }
    if (!Array.isArray(t?.rbac)) out.push(`operatorTypes[${i}] (${t?.name}): rbac must list the operator's roles`);
  });
  return out;
}

/** Every problem with a candidate registry file (empty: it would load). */
export function checkRegistryFile(path: string): string[] {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return [`cannot read ${path}: ${(err as Error).message}`];
  }
  const shape = shapeFindings(raw);
  return shape.length ? shape : rbacFindings((raw as { operatorTypes: OperatorType[] }).operatorTypes);
}

export function loadRegistry(path: string): OperatorRegistry {
  const findings = checkRegistryFile(path);
  if (findings.length) throw new RegistryRejected(findings);
  const types = (parse(readFileSync(path, 'utf8')) as { operatorTypes: OperatorType[] }).operatorTypes.map((t) => ({
    ...t, extraTypes: t.extraTypes ?? [], secondary: t.secondary ?? [],
  }));
  return {
    types,
    get: (name) => types.find((t) => t.name === name),
    kindOf(apiVersion, kind, among) {
      for (const type of types) {
        if (among && !among.includes(type.name)) continue;
        const spec = [...type.kinds, ...type.extraTypes].find((k) => k.apiVersion === apiVersion && k.kind === kind);
        if (spec) return { type, spec };
      }
      return undefined;
    },
  };
}

export const defaultRegistryPath = () => new URL('../../../deploy/operators.yaml', import.meta.url).pathname;
