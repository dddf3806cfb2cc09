import type { CompleteRule, KindSpec, OperatorRegistry, ReadyRule } from './registry.js';
import { at } from './paths.js';
import { field, show, type Obj } from './values.js';

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `Kind/name`, as messages name an object. */
const objectName = (o: Obj) => `${show(o.kind)}/${show(field(o.metadata, 'name'))}`;

/** A rule with no values means "exists"; `atLeast` compares numbers (ready replicas). */
export function meets(obj: Obj, rule: ReadyRule): boolean {
  const values = at(obj, rule.path);
  if (rule.atLeast !== undefined) return values.some((v) => typeof v === 'number' && v >= rule.atLeast!);
  if (!rule.values.length) return true;
  return values.some((v) => rule.values.includes(v as string | number | boolean));
}

export function kindSpecOf(registry: OperatorRegistry, o: Obj): KindSpec | undefined {
  for (const t of registry.types) {
    const k = [...t.kinds, ...t.extraTypes, ...t.secondary].find(
      (s) => s.apiVersion === o.apiVersion && s.kind === o.kind,
    );
    if (k) return k;
  }
  return undefined;
}

/** Not ready objects, as `Kind/name` (empty: the instance is ready). */
export function notReady(objects: Obj[], registry: OperatorRegistry): string[] {
  return objects
    .filter((o) => {
      const k = kindSpecOf(registry, o);
      return !k || !meets(o, k.ready);
    })
    .map(objectName);
}

export interface Failure {
  /** `Kind/name` */
  object: string;
  severity: 'permanent' | 'temporary';
  /** what matched: `status.state=failed`, `condition Ready=False (reason X)` */
  rule: string;
  /** the operator's own message, when it gave one */
  message?: string;
  /** `Kind/name: rule: message`, for failureReason */
  text: string;
}

interface Condition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

/** What a failure or completion rule matched on the object, and the message that goes with it. */
function matchRule(obj: Obj, r: CompleteRule): { rule: string; message?: string } | null {
  let rule: string | undefined;
  let message: unknown;
  if (r.condition) {
    const c = at(obj, 'status.conditions.*').find(
      (x): x is Condition =>
        typeof x === 'object' &&
        x !== null &&
        (x as Condition).type === r.condition!.type &&
        (x as Condition).status === r.condition!.status &&
        (!r.condition!.reasons || r.condition!.reasons.includes((x as Condition).reason as string)),
    );
    if (!c) return null;
    // type and status are the rule's: the condition matched them exactly
    rule = `condition ${r.condition.type}=${r.condition.status}${c.reason ? ` (${show(c.reason)})` : ''}`;
    message = c.message;
  } else if (r.path) {
    const values = r.values ?? [];
    const v = at(obj, r.path).find((x): x is Scalar => isScalar(x) && values.includes(x));
    if (v === undefined) return null;
    rule = `${r.path}=${String(v)}`;
  } else return null;
  if (r.message) message = at(obj, r.message).find((m) => typeof m === 'string' && m);
  else if (message === undefined) message = at(obj, 'status.message').find((m) => typeof m === 'string' && m);
  return typeof message === 'string' && message ? { rule, message } : { rule };
}

/** The first failure rule of the object's kind that matches its status, or null. */
export function failureOf(obj: Obj, spec: KindSpec): Failure | null {
  for (const r of spec.failed ?? []) {
    const m = matchRule(obj, r);
    if (!m) continue;
    const name = objectName(obj);
    return {
      object: name,
      severity: r.severity ?? 'permanent',
      rule: m.rule,
      ...(m.message ? { message: m.message } : {}),
      text: `${name}: ${m.rule}${m.message ? `: ${m.message}` : ''}`,
    };
  }
  return null;
}

/** Whether a task's object has run to its end by its kind's `complete` rules; null when the kind has none. */
export function completeOf(obj: Obj, spec: KindSpec): boolean | null {
  if (!spec.complete?.length) return null;
  return spec.complete.some((r) => matchRule(obj, r) !== null);
}

/**
 * Whether a task's objects have all run to their end: those whose kinds have `complete` rules
 * meet them, and there is at least one such object (kinds that only serve never end a task).
 */
export function taskComplete(objects: Obj[], registry: OperatorRegistry): boolean {
  let counted = 0;
  for (const o of objects) {
    const k = kindSpecOf(registry, o);
    const done = k ? completeOf(o, k) : null;
    if (done === false) return false;
    if (done) counted++;
  }
  return counted > 0;
}

/** Failed objects by the registry's failure rules, permanent ones first. */
export function failures(objects: Obj[], registry: OperatorRegistry): Failure[] {
  const out: Failure[] = [];
  for (const o of objects) {
    const k = kindSpecOf(registry, o);
    const f = k && failureOf(o, k);
    if (f) out.push(f);
  }
  return out.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'permanent' ? -1 : 1));
}
