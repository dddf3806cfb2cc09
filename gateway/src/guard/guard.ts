import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { fail } from '@nvcf/errors';
import { checkOperationInputs } from '@nvcf/subgraph-kit';
import type { GatewayLimits } from '../limits.js';
import { summarize } from './analyze.js';
import { checkVariableDepth } from './variables.js';
import { deprecatedUses, hasDeprecations } from './deprecated.js';

const none: readonly string[] = Object.freeze([]);

export interface GraphQLParams {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
  /** a trusted document's id (GraphQL over HTTP); Apollo's is `extensions.persistedQuery.sha256Hash` */
  documentId?: unknown;
}

export interface GuardedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  operationName: string | undefined;
  /** as sent */
  variables: Record<string, unknown>;
  /** coerced to their declared types: what execution uses */
  coerced: Record<string, unknown>;
  query: string;
  /** the request as checked: a trusted document in place of its id (the engine gets this one) */
  params: GraphQLParams;
  /** `sha256:<hex>` when the document came from the trusted-documents manifest */
  documentId?: string;
  /** the deprecated schema coordinates the operation uses (`Type.field`, `Type.field(arg:)`…) */
  deprecated: readonly string[];
}

/**
 * A GraphQL request error (parse, validation, variable coercion): GraphQL over HTTP answers it 200
 * to a client that takes application/json only, and 400 in application/graphql-response+json.
 */
const requestError = { status: 400, jsonStatus: 200 };

const withLocations = (err: GraphQLError, code: string, message = err.message) =>
  new GraphQLError(message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    extensions: { code, http: requestError },
  });

// "Did you mean …?" hints describe the schema: only callers who may introspect get them
const withoutHints = (message: string) => message.replace(/ Did you mean .*\?$/, '');

/**
 * The checks every operation passes before the gateway plans or executes it, cheapest
 * first: document size, tokens (the parser stops at the limit), fragment cycles, depth,
 * aliases, directives and cost (fragments summarised once, never expanded), introspection,
 * validation against the schema, then the variables. Each failure is a registry error.
 */
export class OperationGuard {
  // validation is the costly step; documents that passed once pass again (the schema is fixed)
  private readonly validated = new Set<string>();
  // the deprecated fields each validated document uses, per operation: computed once, bounded like `validated`
  private readonly deprecations = new Map<string, Map<string, readonly string[]>>();
  private readonly anyDeprecated: boolean;
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: GatewayLimits,
  ) {
    this.anyDeprecated = hasDeprecations(schema);
  }

  // documents that passed the structural checks once, parsed: small ones only, so the cache stays a few MB
  private readonly documents = new Map<
    string,
    { document: DocumentNode; fragments: Map<string, FragmentDefinitionNode> }
  >();

  /** Parses within the token limit and checks directives and literal nesting; reuses the result for small documents. */
  private parsed(query: string) {
    const hit = this.documents.get(query);
    if (hit) return hit;
    const { limits } = this;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: limits.maxTokens });
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      if (/Document contains more th\w+ \d+ tokens/.test(err.message)) {
        throw fail(
          'LIMIT_EXCEEDED',
          `the document has more than ${limits.maxTokens} tokens, the limit; split the operation or use fragments less`,
          { limit: limits.maxTokens, field: 'query' },
        );
      }
      throw withLocations(err, 'GRAPHQL_PARSE_FAILED');
    }
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const { directives, valueDepth } = scan(document);
    if (directives > limits.maxDirectives) {
      throw fail(
        'LIMIT_EXCEEDED',
        `the document uses ${directives} directives; at most ${limits.maxDirectives} are accepted`,
        { limit: limits.maxDirectives },
      );
    }
    if (valueDepth > limits.maxVariableDepth) {
      throw fail(
        'LIMIT_EXCEEDED',
        `an argument value in the document is nested ${valueDepth} levels deep; at most ${limits.maxVariableDepth} are accepted`,
        { limit: limits.maxVariableDepth },
      );
    }
    const entry = { document, fragments };
    if (query.length <= 2048) {
      if (this.documents.size >= 500) this.documents.clear();
      this.documents.set(query, entry);
    }
    return entry;
  }

  check(params: GraphQLParams, caller: { introspection: boolean }): GuardedOperation {
    const { limits } = this;
    const { query, operationName } = params;
    if (typeof query !== 'string' || !query.trim())
      throw fail('BAD_USER_INPUT', 'send the GraphQL document as a non-empty string in `query`', { field: 'query' });
    if (operationName != null && typeof operationName !== 'string')
      throw fail('BAD_USER_INPUT', '`operationName` must be a string or null', { field: 'operationName' });
    if (params.variables != null && (typeof params.variables !== 'object' || Array.isArray(params.variables))) {
      throw fail('BAD_USER_INPUT', '`variables` must be a JSON object (or null)', { field: 'variables' });
    }
    if (params.extensions != null && (typeof params.extensions !== 'object' || Array.isArray(params.extensions))) {
      throw fail('BAD_USER_INPUT', '`extensions` must be a JSON object (or null)', { field: 'extensions' });
    }
    const variables = (params.variables ?? {}) as Record<string, unknown>;
    if (query.length > limits.maxDocumentChars) {
      throw fail(
        'LIMIT_EXCEEDED',
        `the document has ${query.length} characters; at most ${limits.maxDocumentChars} are accepted`,
        { limit: limits.maxDocumentChars, field: 'query' },
      );
    }
    const { document, fragments } = this.parsed(query);
    const operation = getOperationAST(document, operationName ?? undefined);
    if (!operation) {
      throw fail(
        'GRAPHQL_VALIDATION_FAILED',
        operationName
          ? `the document has no operation named "${operationName}"`
          : 'the document has several operations: name the one to run in `operationName`',
        { field: 'operationName', http: requestError },
      );
    }
    const s = summarize(operation.selectionSet, fragments, variables);
    if (s.depth > limits.maxDepth)
      throw fail('LIMIT_EXCEEDED', `the operation is ${s.depth} levels deep; at most ${limits.maxDepth} are accepted`, {
        limit: limits.maxDepth,
      });
    if (s.aliases > limits.maxAliases)
      throw fail(
        'LIMIT_EXCEEDED',
        `the operation has ${s.aliases} aliased fields (after fragment expansion); at most ${limits.maxAliases} are accepted`,
        { limit: limits.maxAliases },
      );
    if (s.cost > limits.maxCost) {
      throw fail(
        'LIMIT_EXCEEDED',
        `the operation selects ${Number.isFinite(s.cost) ? s.cost : 'too many'} fields after fragment expansion (its cost); at most ${limits.maxCost} are accepted — select fewer fields or ids per request`,
        { limit: limits.maxCost },
      );
    }
    if (s.introspection && !caller.introspection) {
      throw fail(
        'FORBIDDEN',
        'introspection is disabled for this caller; the schema is published in the API documentation',
        { field: '__schema' },
      );
    }
    if (!this.validated.has(query)) {
      const errors = validate(this.schema, document, undefined, { maxErrors: 20 });
      if (errors.length) {
        const [first, ...rest] = errors.map((e) =>
          withLocations(e, 'GRAPHQL_VALIDATION_FAILED', caller.introspection ? e.message : withoutHints(e.message)),
        );
        throw rest.length ? new ValidationErrors([first, ...rest]) : first;
      }
      if (this.validated.size >= 1000) this.validated.clear();
      if (query.length <= 8192) this.validated.add(query);
    }
    const deprecated = this.deprecatedIn(query, operation, fragments);
    checkVariableDepth(variables, limits.maxVariableDepth);
    // every input value within its documented bound (docs/limits.md), before the planner or a subgraph sees it
    const oversize = checkOperationInputs({ schema: this.schema, document, operation, variables });
    if (oversize) throw oversize;
    const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], variables, { maxErrors: 10 });
    if (coerced.errors) {
      const [first, ...rest] = coerced.errors.map((e) =>
        withLocations(e, 'BAD_USER_INPUT', caller.introspection ? e.message : withoutHints(e.message)),
      );
      throw rest.length ? new ValidationErrors([first, ...rest]) : first;
    }
    return {
      document,
      operation,
      fragments,
      operationName: operationName ?? undefined,
      variables,
      coerced: coerced.coerced,
      query,
      params,
      deprecated,
    };
  }

  /** The deprecated fields a validated operation uses (docs/schema.md): walked once per document and operation. */
  private deprecatedIn(
    query: string,
    operation: OperationDefinitionNode,
    fragments: Map<string, FragmentDefinitionNode>,
  ): readonly string[] {
    if (!this.anyDeprecated) return none;
    const name = operation.name?.value ?? '';
    let byOperation = this.deprecations.get(query);
    const hit = byOperation?.get(name);
    if (hit) return hit;
    const found = deprecatedUses(this.schema, operation, fragments);
    if (query.length <= 8192) {
      if (!byOperation) {
        if (this.deprecations.size >= 1000) this.deprecations.clear();
        byOperation = new Map();
        this.deprecations.set(query, byOperation);
      }
      byOperation.set(name, found);
    }
    return found;
  }
}

/**
 * Directives used, and the deepest nesting of literal argument values (objects and lists
 * written in the document). Iterative: nothing here recurses on what the client sent.
 */
function scan(document: DocumentNode): { directives: number; valueDepth: number } {
  let directives = 0;
  let valueDepth = 0;
  const todo: [unknown, number][] = [[document.definitions, 0]];
  while (todo.length) {
    const [n, depth] = todo.pop()!;
    if (Array.isArray(n)) {
      for (const x of n) todo.push([x, depth]);
      continue;
    }
    if (!n || typeof n !== 'object') continue;
    const node = n as { kind?: string } & Record<string, unknown>;
    if (node.kind === Kind.DIRECTIVE) directives++;
    const nested = node.kind === Kind.OBJECT || node.kind === Kind.LIST ? depth + 1 : depth;
    valueDepth = Math.max(valueDepth, nested);
    for (const [k, v] of Object.entries(node)) if (k !== 'loc' && v && typeof v === 'object') todo.push([v, nested]);
  }
  return { directives, valueDepth };
}

/** More than one error about the same request: all of them reach the client. */
export class ValidationErrors extends Error {
  override name = 'ValidationErrors';
  constructor(readonly errors: GraphQLError[]) {
    super(errors[0].message);
  }
}

/** The errors a refused operation answers with. */
export const refusalErrors = (err: unknown): GraphQLError[] | undefined =>
  err instanceof ValidationErrors ? err.errors : err instanceof GraphQLError ? [err] : undefined;
