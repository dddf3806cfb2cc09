import { print, type ExecutionResult } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { documentIdOf as clientDocumentIdOf } from '@nvcf/client';

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; [k: string]: unknown } }[];
  status: number;
}

/** A real HTTP client against the gateway: what any client that knows only API.md does. */
export function httpClient(url: string, token?: string) {
  return async <T, V>(doc: TypedDocumentNode<T, V>, variables?: V): Promise<GraphQLResponse<T>> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: print(doc), variables }),
    });
    const body = (await res.json()) as ExecutionResult<T>;
    return { ...(body as any), status: res.status };
  };
}
export type HttpClient = ReturnType<typeof httpClient>;

/** A generated document's trusted-document id (`npm run codegen` embeds it as `__meta__.hash`). */
export function documentIdOf(doc: TypedDocumentNode<any, any>): string {
  const id = clientDocumentIdOf(doc);
  if (!id) throw new Error('the document has no __meta__.hash: it is not from @nvcf/client (npm run codegen)');
  return id;
}

/** What a client of trusted documents sends: the document's id, never its text (docs/schema.md). */
export function persistedClient(url: string, token?: string): HttpClient {
  return async <T, V>(doc: TypedDocumentNode<T, V>, variables?: V): Promise<GraphQLResponse<T>> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ documentId: documentIdOf(doc), variables }),
    });
    const body = (await res.json()) as ExecutionResult<T>;
    return { ...(body as any), status: res.status };
  };
}

/** The data of a response that must have succeeded; the errors otherwise, in the failure. */
export function ok<T>(r: GraphQLResponse<T>): T {
  if (r.errors?.length || !r.data) throw new Error(`expected data, got ${JSON.stringify(r.errors ?? r)}`);
  return r.data;
}

/** The registry code of a response that must have failed. */
export function errorCode(r: GraphQLResponse<unknown>): string | undefined {
  return r.errors?.[0]?.extensions?.code;
}
