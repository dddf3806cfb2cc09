/**
 * An AdmissionReview v1 as the API server sends it to a mutating webhook for a pod CREATE, as the
 * request body text: for the webhook's tests and the docs generator that quotes its answers.
 */
export function podAdmissionReview(o: { namespace: string; object: unknown; name?: string; uid?: string }): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: o.uid ?? 'u',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      operation: 'CREATE',
      namespace: o.namespace,
      ...(o.name === undefined ? {} : { name: o.name }),
      object: o.object,
    },
  });
}
