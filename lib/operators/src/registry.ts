import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { pathError } from './paths.js';

export interface ReadyRule {
  /** dotted path into the object, e.g. status.state */
  path: string;
  /** ready when the value is one of these; an empty list means "exists" */
  values: (string | boolean | number)[];
  /** ready when the number is at least this (e.g. status.readyReplicas ≥ 1) */
  atLeast?: number;
}

/**
 * When an object has failed, by its status: a field with one of `values`, or a status
 * condition (`status.conditions[]`) of `type` with `status`, optionally only for `reasons`.
 */
export interface FailureRule {
  path?: string;
  values?: (string | boolean | number)[];
  condition?: { type: string; status: 'True' | 'False' | 'Unknown'; reasons?: string[] };
  /** permanent (default): the instance is FAILED at once; temporary: the agent keeps retrying */
  severity?: 'permanent' | 'temporary';
  /** dotted path of the operator's own message; default: the matched condition's message, else status.message */
  message?: string;
}

export interface KindSpec {
  apiVersion: string;
  kind: string;
  ready: ReadyRule;
  /** what means failed (checked before readiness, on every read) */
  failed?: FailureRule[];
  /** the CRD's name, `<plural>.<group>`; default the lowercased kind + 's' and the group */
  crd?: string;
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
            out.push(
              `operator type '${t.name}', ${role.kind} '${role.name}', rule ${i}: wildcard '*' in ${field} (${JSON.stringify(rule[field])}); list the exact ${field} instead`,
            );
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
    if (typeof t?.clusterAttribute !== 'string' || !t.clusterAttribute)
      out.push(`operatorTypes[${i}] (${t?.name}): clusterAttribute is required`);
    if (!Array.isArray(t?.kinds) || !t.kinds.length)
      out.push(`operatorTypes[${i}] (${t?.name}): kinds must list at least one apiVersion/kind`);
    for (const k of [...(t?.kinds ?? []), ...(t?.extraTypes ?? []), ...(t?.secondary ?? [])]) {
      if (!k?.ready?.path)
        out.push(`operator type '${t?.name}', kind ${k?.kind}: ready.path is required (the status mapping)`);
      else if (!Array.isArray(k.ready.values) && k.ready.atLeast === undefined)
        out.push(`operator type '${t?.name}', kind ${k?.kind}: ready needs values (a list) or atLeast (a number)`);
    }
    for (const [list, k] of [
      ...(t?.kinds ?? []).map((k: any) => ['kinds', k]),
      ...(t?.extraTypes ?? []).map((k: any) => ['extraTypes', k]),
      ...(t?.secondary ?? []).map((k: any) => ['secondary', k]),
    ] as [string, any][]) {
      out.push(...failureFindings(t?.name, list, k));
    }
    if (!Array.isArray(t?.rbac)) out.push(`operatorTypes[${i}] (${t?.name}): rbac must list the operator's roles`);
  });
  return out;
}

const CONDITION_STATUS = ['True', 'False', 'Unknown'];

/** Problems with a kind's failure rules: bad paths, and rules that can never match. */
export function failureFindings(typeName: string, list: string, k: any): string[] {
  const where = `operator type '${typeName}', ${list} ${k?.apiVersion}/${k?.kind}`;
  if (k?.failed === undefined) return [];
  if (!Array.isArray(k.failed)) return [`${where}: failed must be a list of rules`];
  const out: string[] = [];
  if (k.crd !== undefined && (typeof k.crd !== 'string' || !/^[a-z0-9-]+\.[a-z0-9.-]+$/.test(k.crd)))
    out.push(`${where}: crd must be '<plural>.<group>' (got ${JSON.stringify(k.crd)})`);
  k.failed.forEach((r: any, i: number) => {
    const at = `${where}, failed[${i}]`;
    if (typeof r !== 'object' || r === null) return void out.push(`${at}: must be an object`);
    const known = ['path', 'values', 'condition', 'severity', 'message'];
    for (const key of Object.keys(r))
      if (!known.includes(key)) out.push(`${at}: unknown field '${key}' (expected ${known.join(', ')})`);
    if (r.severity !== undefined && !['permanent', 'temporary'].includes(r.severity))
      out.push(`${at}: severity must be permanent or temporary (got ${JSON.stringify(r.severity)})`);
    if (r.message !== undefined) {
      const e = pathError(r.message);
      if (e) out.push(`${at}: bad message path: ${e}`);
    }
    if ((r.path === undefined) === (r.condition === undefined))
      return void out.push(`${at}: needs exactly one of path (with values) or condition`);
    if (r.path !== undefined) {
      const e = pathError(r.path);
      if (e) return void out.push(`${at}: bad path: ${e}`);
      // the operator reports in status; nothing else of the object is its to change
      if (!String(r.path).startsWith('status.'))
        out.push(`${at}: path '${r.path}' can never match: operators report failures under status.`);
      if (!Array.isArray(r.values) || !r.values.length)
        return void out.push(`${at}: path '${r.path}' needs a non-empty values list (which values mean failed)`);
      if (k.ready?.path === r.path && Array.isArray(k.ready.values)) {
        const both = r.values.filter((v: unknown) => k.ready.values.includes(v));
        if (both.length) out.push(`${at}: can never match: ${JSON.stringify(both)} at ${r.path} also means ready`);
      }
    } else {
      const c = r.condition;
      if (typeof c?.type !== 'string' || !c.type) return void out.push(`${at}: condition.type is required`);
      if (r.values !== undefined) out.push(`${at}: values belongs to path rules, not condition rules`);
      if (c.status === undefined)
        out.push(`${at}: condition.status is required (True, False or Unknown: which one means failed)`);
      else if (!CONDITION_STATUS.includes(c.status))
        out.push(
          `${at}: can never match: condition status ${JSON.stringify(c.status)} is not one of ${CONDITION_STATUS.join(', ')}`,
        );
      if (c.reasons !== undefined && (!Array.isArray(c.reasons) || !c.reasons.length))
        out.push(`${at}: can never match: condition.reasons is an empty list (leave it out for any reason)`);
    }
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
    ...t,
    extraTypes: t.extraTypes ?? [],
    secondary: t.secondary ?? [],
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

/** The CRD that serves a kind: the registry's `crd`, else `<kind lowercased>s.<group>` (the Kubernetes convention). */
export function crdName(spec: Pick<KindSpec, 'apiVersion' | 'kind' | 'crd'>): string {
  if (spec.crd) return spec.crd;
  const group = spec.apiVersion.includes('/') ? spec.apiVersion.split('/')[0] : '';
  return `${spec.kind.toLowerCase()}s${group ? `.${group}` : ''}`;
}
