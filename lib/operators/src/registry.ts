import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { pathError } from './paths.js';
import { field, isList, isRecord, show } from './values.js';

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

/**
 * When an object of a task has run to its end successfully: a field with one of `values`, or a
 * status condition of `type` with `status` (a task that has also failed is failed).
 */
export type CompleteRule = Pick<FailureRule, 'path' | 'values' | 'condition' | 'message'>;

export interface KindSpec {
  apiVersion: string;
  kind: string;
  ready: ReadyRule;
  /** what means failed (checked before readiness, on every read); for a task, a permanent failure ends it ERRORED */
  failed?: FailureRule[];
  /** what means done, for a task (a kind without it never ends a task by itself: cancel or the runtime deadline do) */
  complete?: CompleteRule[];
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
  const types = field(raw, 'operatorTypes');
  if (!Array.isArray(types)) return ['the file must have a top-level list `operatorTypes`'];
  const out: string[] = [];
  types.forEach((t: unknown, i: number) => {
    const type = isRecord(t) ? t : {};
    const name = show(type.name);
    if (typeof type.name !== 'string' || !type.name) out.push(`operatorTypes[${i}]: name is required`);
    if (typeof type.clusterAttribute !== 'string' || !type.clusterAttribute)
      out.push(`operatorTypes[${i}] (${name}): clusterAttribute is required`);
    if (!isList(type.kinds) || !type.kinds.length)
      out.push(`operatorTypes[${i}] (${name}): kinds must list at least one apiVersion/kind`);
    const lists = (['kinds', 'extraTypes', 'secondary'] as const).map((list) => {
      const kinds = type[list] ?? [];
      if (list !== 'kinds' && !isList(kinds)) out.push(`operatorTypes[${i}] (${name}): ${list} must be a list`);
      return [list, isList(kinds) ? kinds : []] as const;
    });
    for (const [, kinds] of lists) {
      for (const k of kinds) {
        const ready = field(k, 'ready');
        if (!field(ready, 'path'))
          out.push(
            `operator type '${name}', kind ${show(field(k, 'kind'))}: ready.path is required (the status mapping)`,
          );
        else if (!isList(field(ready, 'values')) && field(ready, 'atLeast') === undefined)
          out.push(
            `operator type '${name}', kind ${show(field(k, 'kind'))}: ready needs values (a list) or atLeast (a number)`,
          );
      }
    }
    for (const [list, kinds] of lists)
      for (const k of kinds) out.push(...failureFindings(name, list, k), ...completeFindings(name, list, k));
    if (!isList(type.rbac)) out.push(`operatorTypes[${i}] (${name}): rbac must list the operator's roles`);
  });
  return out;
}

const CONDITION_STATUS = ['True', 'False', 'Unknown'];

/** Problems with a kind's failure rules: bad paths, and rules that can never match. */
export function failureFindings(typeName: string, list: string, k: unknown): string[] {
  return ruleFindings(typeName, list, k, 'failed');
}

/** Problems with a kind's completion rules (tasks), checked as failure rules are, without severity. */
export function completeFindings(typeName: string, list: string, k: unknown): string[] {
  return ruleFindings(typeName, list, k, 'complete');
}

function ruleFindings(typeName: string, list: string, k: unknown, which: 'failed' | 'complete'): string[] {
  const where = `operator type '${typeName}', ${list} ${show(field(k, 'apiVersion'))}/${show(field(k, 'kind'))}`;
  const rules = field(k, which);
  if (rules === undefined) return [];
  if (!isList(rules)) return [`${where}: ${which} must be a list of rules`];
  const out: string[] = [];
  const crd = field(k, 'crd');
  if (which === 'failed' && crd !== undefined && (typeof crd !== 'string' || !/^[a-z0-9-]+\.[a-z0-9.-]+$/.test(crd)))
    out.push(`${where}: crd must be '<plural>.<group>' (got ${JSON.stringify(crd)})`);
  const ready = field(k, 'ready');
  const readyValues = field(ready, 'values');
  rules.forEach((r: unknown, i: number) => {
    const at = `${where}, ${which}[${i}]`;
    if (!isRecord(r)) return void out.push(`${at}: must be an object`);
    const known =
      which === 'failed'
        ? ['path', 'values', 'condition', 'severity', 'message']
        : ['path', 'values', 'condition', 'message'];
    for (const key of Object.keys(r))
      if (!known.includes(key)) out.push(`${at}: unknown field '${key}' (expected ${known.join(', ')})`);
    if (r.severity !== undefined && r.severity !== 'permanent' && r.severity !== 'temporary')
      out.push(`${at}: severity must be permanent or temporary (got ${JSON.stringify(r.severity)})`);
    if (r.message !== undefined) {
      const e = pathError(r.message);
      if (e) out.push(`${at}: bad message path: ${e}`);
    }
    if ((r.path === undefined) === (r.condition === undefined))
      return void out.push(`${at}: needs exactly one of path (with values) or condition`);
    if (r.path !== undefined) {
      const path = r.path;
      const e = pathError(path);
      if (e !== null || typeof path !== 'string') return void out.push(`${at}: bad path: ${e}`);
      // the operator reports in status; nothing else of the object is its to change
      if (!path.startsWith('status.'))
        out.push(
          `${at}: path '${path}' can never match: operators report ${which === 'failed' ? 'failures' : 'completion'} under status.`,
        );
      const values = r.values;
      if (!isList(values) || !values.length)
        return void out.push(`${at}: path '${path}' needs a non-empty values list (which values mean ${which})`);
      // a finished task may well read as ready too (a cache that is filled); a failed object may not
      if (which === 'failed' && field(ready, 'path') === path && isList(readyValues)) {
        const both = values.filter((v) => readyValues.includes(v));
        if (both.length) out.push(`${at}: can never match: ${JSON.stringify(both)} at ${path} also means ready`);
      }
    } else {
      const c = r.condition;
      const type = field(c, 'type');
      if (typeof type !== 'string' || !type) return void out.push(`${at}: condition.type is required`);
      if (r.values !== undefined) out.push(`${at}: values belongs to path rules, not condition rules`);
      const status = field(c, 'status');
      if (status === undefined)
        out.push(`${at}: condition.status is required (True, False or Unknown: which one means ${which})`);
      else if (typeof status !== 'string' || !CONDITION_STATUS.includes(status))
        out.push(
          `${at}: can never match: condition status ${JSON.stringify(status)} is not one of ${CONDITION_STATUS.join(', ')}`,
        );
      const reasons = field(c, 'reasons');
      if (reasons !== undefined && (!isList(reasons) || !reasons.length))
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
