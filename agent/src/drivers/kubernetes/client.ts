import {
  HttpMethod,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  type KubernetesObject,
  type ResponseContext,
} from '@kubernetes/client-node';
import { inSpan, SpanKind } from '@nvcf/telemetry';
import { KubeApiError } from './errors.js';

/** A Kubernetes object as the API server sends it: plain JSON. */
export type KubeObject = KubernetesObject & {
  apiVersion: string;
  kind: string;
  metadata: Meta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- open-ended JSON (spec, status): the cluster simulator in test/services reads it by kind without narrowing, so `unknown` here waits on that code
  [field: string]: any;
};
export interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}
export interface KubeList {
  items: KubeObject[];
  metadata: { resourceVersion?: string };
}
/** Enough to address one object. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string };
}
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * The object API of @kubernetes/client-node, answering plain JSON: its generated models
 * would drop fields they do not know and turn timestamps into Dates.
 */
class PlainObjectApi extends KubernetesObjectApi {
  static create(kc: KubeConfig): PlainObjectApi {
    const api = kc.makeApiClient(PlainObjectApi);
    api.setDefaultNamespace(kc);
    return api;
  }

  protected override async processResponse<T extends KubernetesObject>(response: ResponseContext): Promise<T> {
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) return (text ? JSON.parse(text) : {}) as T;
    throw KubeApiError.fromResponse(response.httpStatusCode, text);
  }

  path(ref: ObjectRef, action: 'patch' | 'list'): Promise<string> {
    return this.specUriPath(structuredClone(ref), action);
  }

  async send<T>(
    method: HttpMethod,
    path: string,
    o: { query?: Query; body?: unknown; contentType?: string } = {},
  ): Promise<T> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, method);
    ctx.setHeaderParam('Accept', 'application/json');
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) ctx.setQueryParam(k, String(v));
    if (o.body !== undefined) {
      ctx.setHeaderParam('Content-Type', o.contentType ?? 'application/json');
      ctx.setBody(JSON.stringify(o.body));
    }
    // an HTTP client span per API call (semantic conventions: the method as its name, the path as url.path;
    // bodies and queries, which hold configuration values, are never recorded)
    const server = new URL(ctx.getUrl());
    return inSpan(
      method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': method,
          'url.path': path,
          'server.address': server.hostname,
          'server.port': Number(server.port) || (server.protocol === 'https:' ? 443 : 80),
        },
      },
      async (span) => {
        try {
          const out = (await this.requestPromise(ctx)) as T;
          span?.setAttribute('http.response.status_code', 200);
          return out;
        } catch (err) {
          if (err instanceof KubeApiError) span?.setAttribute('http.response.status_code', err.code);
          throw err;
        }
      },
    );
  }
}

export interface KubeClient {
  readonly kubeConfig: KubeConfig;
  /** Server-Side Apply, forced: this manager owns every field it sends, and only those */
  apply(obj: KubeObject, fieldManager: string, subresource?: 'status'): Promise<KubeObject>;
  /** JSON merge patch (RFC 7396): sets the given keys, leaves the rest alone */
  mergePatch(ref: ObjectRef, patch: unknown, fieldManager: string, subresource?: 'status'): Promise<KubeObject>;
  /** null when the object does not exist */
  get(ref: ObjectRef): Promise<KubeObject | null>;
  list(apiVersion: string, kind: string, o?: { namespace?: string; labelSelector?: string }): Promise<KubeList>;
  /** false when the object was already gone; Foreground keeps the object until its dependents are gone */
  delete(
    ref: ObjectRef,
    o?: { gracePeriodSeconds?: number; propagationPolicy?: 'Foreground' | 'Background' },
  ): Promise<boolean>;
  /** the collection path of a kind, in one namespace or across all */
  collectionPath(apiVersion: string, kind: string, namespace?: string): Promise<string>;
  /** a raw request, for the odd endpoint (namespace finalize) */
  request<T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T>;
  readonly watcher: Watch;
}

/** From a kubeconfig file; without one, the pod's service account (in-cluster) or the default kubeconfig. */
export function loadKubeConfig(file?: string): KubeConfig {
  const kc = new KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  return kc;
}

const isNotFound = (err: unknown) => err instanceof KubeApiError && err.code === 404;

export function createKubeClient(kubeConfig: KubeConfig): KubeClient {
  const api = PlainObjectApi.create(kubeConfig);
  return {
    kubeConfig,
    watcher: new Watch(kubeConfig),
    async apply(obj, fieldManager, subresource) {
      const path = (await api.path(obj, 'patch')) + (subresource ? `/${subresource}` : '');
      return api.send(HttpMethod.PATCH, path, {
        body: obj,
        contentType: PatchStrategy.ServerSideApply,
        query: { fieldManager, force: true },
      });
    },
    async mergePatch(ref, patch, fieldManager, subresource) {
      const path = (await api.path(ref, 'patch')) + (subresource ? `/${subresource}` : '');
      return api.send(HttpMethod.PATCH, path, {
        body: patch,
        contentType: PatchStrategy.MergePatch,
        query: { fieldManager },
      });
    },
    async get(ref) {
      try {
        return await api.send<KubeObject>(HttpMethod.GET, await api.path(ref, 'patch'));
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async list(apiVersion, kind, o = {}) {
      const path = await api.path({ apiVersion, kind, metadata: { namespace: o.namespace } }, 'list');
      return api.send(HttpMethod.GET, path, { query: { labelSelector: o.labelSelector } });
    },
    async delete(ref, o = {}) {
      try {
        await api.send(HttpMethod.DELETE, await api.path(ref, 'patch'), {
          query: { gracePeriodSeconds: o.gracePeriodSeconds, propagationPolicy: o.propagationPolicy },
        });
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    collectionPath: (apiVersion, kind, namespace) => api.path({ apiVersion, kind, metadata: { namespace } }, 'list'),
    request: (method, path, body) => api.send(HttpMethod[method], path, { body }),
  };
}
