import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Kind } from 'graphql';
import { NvcfError, type GraphQLErrorShape } from './errors.js';

/** Whether to send generated documents by their trusted-document id (docs/schema.md). */
export type DocumentMode = 'id' | 'text';

/**
 * The request body for a document: its id when it has one (the gateway runs the manifest's
 * text), else its text. `text` forces the text (an id the gateway does not know).
 */
export async function requestBody(
  doc: TypedDocumentNode<unknown, never>,
  variables: unknown,
  mode: DocumentMode,
): Promise<Record<string, unknown>> {
  const id = documentIdOf(doc);
  const operationName = operationNameOf(doc);
  const body: Record<string, unknown> = mode === 'id' && id ? { documentId: id } : { query: await textOf(doc) };
  if (operationName) body.operationName = operationName;
  if (variables !== undefined) body.variables = variables;
  return body;
}

/** The id `npm run codegen` embeds in each generated document (`sha256:<hex>`). */
export const documentIdOf = (doc: object): string | undefined =>
  (doc as { __meta__?: { hash?: string } }).__meta__?.hash;

const texts = new WeakMap<object, string>();
/** The document's text; graphql-js is loaded only when a text is needed (ids are the usual case: a CLI starts faster). */
async function textOf(doc: TypedDocumentNode<unknown, never>): Promise<string> {
  let text = texts.get(doc);
  if (text === undefined) {
    const { print } = await import('graphql');
    texts.set(doc, (text = print(doc)));
  }
  return text;
}

// the enum's value, not the enum: graphql is loaded only when a text is needed
const OPERATION_DEFINITION = 'OperationDefinition' as Kind.OPERATION_DEFINITION;

function operationNameOf(doc: TypedDocumentNode<unknown, never>): string | undefined {
  for (const d of doc.definitions) if (d.kind === OPERATION_DEFINITION) return d.name?.value;
  return undefined;
}

interface ExecutionResultShape<T> {
  data?: T | null;
  errors?: GraphQLErrorShape[];
}

/** Reads a GraphQL-over-HTTP response: the data, or an NvcfError with the registry code. */
export async function readResult<T>(res: Response, url: string): Promise<T> {
  let body: ExecutionResultShape<T>;
  try {
    body = (await res.json()) as ExecutionResultShape<T>;
  } catch (cause) {
    throw new NvcfError(
      res.status >= 500 ? 'UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
      `the gateway at ${url} answered HTTP ${res.status} without a GraphQL response`,
      { status: res.status, cause },
    );
  }
  if (body.errors?.length) throw NvcfError.fromErrors(body.errors, res.status);
  if (body.data == null)
    throw new NvcfError(
      'INTERNAL_SERVER_ERROR',
      `the gateway at ${url} answered HTTP ${res.status} with neither data nor errors`,
      { status: res.status },
    );
  return body.data;
}
