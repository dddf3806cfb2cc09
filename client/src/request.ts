import type { DocumentNode, Kind, OperationDefinitionNode, OperationTypeNode } from 'graphql';
import { NvcfError, type GraphQLErrorShape } from './errors.js';

/** Whether to send generated documents by their trusted-document id (docs/schema.md). */
export type DocumentMode = 'id' | 'text';

/**
 * What query, mutate and subscribe take: a generated document (sent by its trusted-document id),
 * a graphql-js DocumentNode (`parse(...)`, `gql`), or the text itself.
 */
export type GraphQLDocument = string | DocumentNode;

export type OperationKind = `${OperationTypeNode}`;

/** A document checked on this side: one operation, its kind, and how it can be sent. */
export interface ResolvedDocument {
  operation: OperationKind;
  operationName?: string;
  /** the trusted-document id of a generated document */
  id?: string;
  /** the text as given (a string), sent as it is */
  text?: string;
  node: DocumentNode;
}

const badInput = (message: string, cause?: unknown) =>
  new NvcfError('BAD_USER_INPUT', message, cause === undefined ? {} : { cause });

// the enum's value, not the enum: graphql is loaded only when a text is needed
const OPERATION_DEFINITION = 'OperationDefinition' as Kind.OPERATION_DEFINITION;

const resolved = new WeakMap<object, ResolvedDocument>();

/**
 * Checks a document before anything is sent: a mistake in the program (not a document, a syntax
 * error, several operations) is its own error, never an unreachable gateway. A string is parsed
 * here (graphql-js loaded for it) to know its operation; what is sent is the string itself.
 */
export async function resolveDocument(doc: unknown): Promise<ResolvedDocument> {
  let node: DocumentNode;
  let text: string | undefined;
  if (typeof doc === 'string') {
    if (!doc.trim()) throw badInput('the document is an empty string');
    const { parse, GraphQLError } = await import('graphql');
    try {
      node = parse(doc, { noLocation: true });
    } catch (cause) {
      if (!(cause instanceof GraphQLError)) throw cause;
      throw new NvcfError('GRAPHQL_PARSE_FAILED', `the document does not parse: ${cause.message}`, { cause });
    }
    text = doc;
  } else if (doc && typeof doc === 'object' && Array.isArray((doc as { definitions?: unknown }).definitions)) {
    const hit = resolved.get(doc);
    if (hit) return hit;
    node = doc as DocumentNode;
  } else {
    throw badInput(
      `expected a GraphQL document (a string, a DocumentNode or a generated document), got ${doc === null ? 'null' : typeof doc}`,
    );
  }
  const operations = node.definitions.filter((d): d is OperationDefinitionNode => d.kind === OPERATION_DEFINITION);
  if (operations.length !== 1)
    throw badInput(`the document has ${operations.length} operations; send exactly one per call`);
  const [op] = operations as [OperationDefinitionNode];
  const out: ResolvedDocument = {
    operation: op.operation,
    operationName: op.name?.value,
    id: text === undefined ? documentIdOf(node) : undefined,
    text,
    node,
  };
  if (text === undefined) resolved.set(node, out);
  return out;
}

/** Refuses variables that are not an object before they are sent (a list, a string, a number…). */
export function checkVariables(variables: unknown) {
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables)))
    throw badInput(
      `variables must be an object of the operation's variables, not ${Array.isArray(variables) ? 'a list' : typeof variables}`,
    );
}

/**
 * The request body for a document: its id when it is a generated one (the gateway runs the
 * manifest's text), else its text. `text` forces the text (an id the gateway does not know).
 */
export async function bodyOf(
  doc: ResolvedDocument,
  variables: unknown,
  mode: DocumentMode,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> =
    mode === 'id' && doc.id ? { documentId: doc.id } : { query: doc.text ?? (await textOf(doc.node)) };
  if (doc.operationName) body.operationName = doc.operationName;
  if (variables !== undefined) body.variables = variables;
  return body;
}

/** The body of a document and its variables, checked. */
export async function requestBody(
  doc: GraphQLDocument,
  variables: unknown,
  mode: DocumentMode,
): Promise<Record<string, unknown>> {
  checkVariables(variables);
  return bodyOf(await resolveDocument(doc), variables, mode);
}

/** JSON for the wire; variables JSON cannot hold (a BigInt, a cycle) are the caller's mistake. */
export function encode(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body);
  } catch (cause) {
    throw badInput(`the variables cannot be sent as JSON: ${(cause as Error).message}`, cause);
  }
}

/** The id `npm run codegen` embeds in each generated document (`sha256:<hex>`). */
export const documentIdOf = (doc: object): string | undefined =>
  (doc as { __meta__?: { hash?: string } }).__meta__?.hash;

const texts = new WeakMap<object, string>();
/** The document's text; graphql-js is loaded only when a text is needed (ids are the usual case: a CLI starts faster). */
async function textOf(doc: DocumentNode): Promise<string> {
  let text = texts.get(doc);
  if (text === undefined) {
    const { print } = await import('graphql');
    texts.set(doc, (text = print(doc)));
  }
  return text;
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
