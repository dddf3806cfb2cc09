import { createLogger } from '@nvcf/logging';
import { injectionOf } from './identity.js';
import type { ReadNamespace } from './namespaces.js';
import { buildPatch, MalformedObject, type Target } from './patch.js';

const log = createLogger('nvca-webhook');

export type Result = 'patched' | 'unchanged' | 'skipped' | 'error';

/** The `response` of an AdmissionReview v1. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  patchType?: 'JSONPatch';
  /** base64 of the JSON Patch */
  patch?: string;
  status?: { code: number; message: string };
  /** shown by kubectl to whoever created the object */
  warnings?: string[];
}

export interface AdmissionReviewOut {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: AdmissionResponse;
}

export interface Admission {
  review: AdmissionReviewOut;
  result: Result;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const answer = (response: AdmissionResponse, result: Result): Admission => ({
  review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response },
  result,
});

/**
 * A review the API server would never send (not JSON, not an AdmissionReview v1, no uid) is
 * refused: whoever sent it is not an API server following the webhook's configuration.
 */
const refuse = (uid: string, message: string) =>
  answer({ uid, allowed: false, status: { code: 400, message: `nvca-webhook: ${message}` } }, 'error');

/**
 * Answers one AdmissionReview v1 (the request body, as text). It never throws: whatever goes
 * wrong is an answer, and only two cases refuse the object: a review that is not one, and an
 * instance namespace that cannot be read (admitting the object then would start a workload
 * without its NVCF ids). An object the webhook cannot read is admitted unchanged with a warning,
 * since blocking it would stop the operator over a shape the API server validates anyway.
 */
export async function admit(body: string, namespaces: ReadNamespace): Promise<Admission> {
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch {
    return refuse('', 'the request body is not JSON (expected an admission.k8s.io/v1 AdmissionReview)');
  }
  const request = isObj(review) ? review.request : undefined;
  const uid = isObj(request) ? str(request.uid) : '';
  if (!isObj(review) || review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview')
    return refuse(uid, 'expected an admission.k8s.io/v1 AdmissionReview');
  if (!isObj(request) || !uid) return refuse(uid, 'the AdmissionReview has no request with a uid');

  const kind = isObj(request.kind) ? request.kind : {};
  const operation = str(request.operation);
  const namespace = str(request.namespace);
  const what = `${str(kind.kind) || 'object'} ${namespace}/${str(request.name) || '(generated name)'}`;
  if ((operation !== 'CREATE' && operation !== 'UPDATE') || !namespace)
    return answer({ uid, allowed: true }, 'skipped');

  let ns;
  try {
    ns = await namespaces(namespace);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    log.warn(`cannot read namespace ${namespace} for ${what}: ${why}`);
    return answer(
      {
        uid,
        allowed: false,
        status: {
          code: 503,
          message: `nvca-webhook: cannot read namespace ${namespace} to inject NVCF ids (${why}); retry`,
        },
      },
      'error',
    );
  }
  const injection = ns && injectionOf(ns);
  if (!injection) return answer({ uid, allowed: true }, 'skipped');

  const target: Target = { group: str(kind.group), kind: str(kind.kind), operation };
  try {
    const ops = buildPatch(request.object, target, injection);
    if (!ops.length) return answer({ uid, allowed: true }, 'unchanged');
    const patch = Buffer.from(JSON.stringify(ops)).toString('base64');
    return answer({ uid, allowed: true, patchType: 'JSONPatch', patch }, 'patched');
  } catch (err) {
    const why = err instanceof MalformedObject ? err.message : `unexpected ${String(err)}`;
    log.warn(`admitted ${what} unchanged: ${why}`);
    return answer(
      { uid, allowed: true, warnings: [`nvca-webhook: NVCF labels and env not injected into ${what}: ${why}`] },
      'error',
    );
  }
}
