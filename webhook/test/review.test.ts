import { admit, type NamespaceMeta, type ReadNamespace } from '../src/index.js';

const INSTANCE: NamespaceMeta = {
  labels: {
    'nvcf.nvidia.com/nca-id': 'nca-a',
    'nvcf.nvidia.com/function-id': 'fn-1',
    'nvcf.nvidia.com/version-id': 'ver-1',
    'nvcf.nvidia.com/instance-id': 'inst-1',
    'nvcf.nvidia.com/cluster-id': 'c1',
  },
  annotations: { 'nvcf.nvidia.com/revision-id': 'rev-1', 'nvcf.nvidia.com/desired': '{}' },
};
const namespaces: ReadNamespace = async (name) =>
  name === 'inst' ? INSTANCE : name === 'plain' ? { labels: {}, annotations: {} } : null;

const review = (request: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-1', ...request } });
const podRequest = (
  namespace: string,
  object: unknown = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } },
) => ({
  kind: { group: '', version: 'v1', kind: 'Pod' },
  operation: 'CREATE',
  namespace,
  name: 'p',
  object,
});
const decode = (patch?: string) => JSON.parse(Buffer.from(patch ?? '', 'base64').toString()) as { path: string }[];

describe('an admission review', () => {
  it('is answered with a JSON Patch for a pod in an instance namespace', async () => {
    const { review: out, result } = await admit(review(podRequest('inst')), namespaces);
    expect(result).toBe('patched');
    expect(out).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: true, patchType: 'JSONPatch' },
    });
    expect(decode(out.response.patch).map((o) => o.path)).toEqual([
      '/metadata/labels',
      '/metadata/annotations',
      '/spec/containers/0/env',
    ]);
  });

  it('allows without a patch what is outside instance namespaces, cluster-scoped, or a delete', async () => {
    for (const req of [
      podRequest('plain'),
      podRequest('gone'),
      { ...podRequest('inst'), namespace: undefined },
      { ...podRequest('inst'), operation: 'DELETE' },
    ]) {
      const { review: out, result } = await admit(review(req), namespaces);
      expect(result).toBe('skipped');
      expect(out.response).toEqual({ uid: 'u-1', allowed: true });
    }
  });

  it('admits a malformed object unchanged, with a warning that says where', async () => {
    const { review: out, result } = await admit(
      review(podRequest('inst', { spec: { containers: 'nope' } })),
      namespaces,
    );
    expect(result).toBe('error');
    expect(out.response).toEqual({
      uid: 'u-1',
      allowed: true,
      warnings: ['nvca-webhook: NVCF labels and env not injected into Pod inst/p: /spec/containers is not a list'],
    });
  });

  it('refuses what is not an AdmissionReview v1, and names what it expected', async () => {
    for (const [body, message] of [
      ['{not json', 'nvca-webhook: the request body is not JSON (expected an admission.k8s.io/v1 AdmissionReview)'],
      [
        JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'u-2' } }),
        'nvca-webhook: expected an admission.k8s.io/v1 AdmissionReview',
      ],
      [
        JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }),
        'nvca-webhook: the AdmissionReview has no request with a uid',
      ],
      ['null', 'nvca-webhook: expected an admission.k8s.io/v1 AdmissionReview'],
    ]) {
      const { review: out, result } = await admit(body, namespaces);
      expect(result).toBe('error');
      expect(out.response).toMatchObject({ allowed: false, status: { code: 400, message } });
    }
  });

  it('refuses the object when its instance namespace cannot be read, so no pod starts without its ids', async () => {
    const down: ReadNamespace = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const { review: out, result } = await admit(review(podRequest('inst')), down);
    expect(result).toBe('error');
    expect(out.response).toEqual({
      uid: 'u-1',
      allowed: false,
      status: {
        code: 503,
        message: 'nvca-webhook: cannot read namespace inst to inject NVCF ids (connect ECONNREFUSED); retry',
      },
    });
  });
});
