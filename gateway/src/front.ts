import type { IncomingMessage, ServerResponse } from 'node:http';
import { OperationTypeNode } from 'graphql';
import type { Principal, TokenVerifier } from '@nvcf/auth';
import { fail } from '@nvcf/errors';
import { readBody, discardBody, BodyTooLarge } from '@nvcf/http';
import { createLogger } from '@nvcf/logging';
import type { RequestMetrics } from '@nvcf/service';
import type { GatewayLimits } from './limits.js';
import type { Runtime } from './runtime.js';
import { authenticate } from './auth.js';
import { refuse } from './refuse.js';
import { checkContentType } from './media.js';
import { pipeResponse } from './pipe.js';
import { OperationGuard, refusalErrors, type GraphQLParams, type GuardedOperation } from './guard/guard.js';
import { TenantRate } from './guard/rate.js';
import type { TrustedDocuments } from './guard/trusted.js';
import { statusOperation } from './status/operation.js';
import { prefersHtml } from './web.js';
import type { StatusService } from './status/service.js';

const log = createLogger('gateway');

export interface FrontDoorOptions {
  runtime: Runtime;
  verify: TokenVerifier;
  guard: OperationGuard;
  /** trusted documents: ids resolved (and, in `require` mode, ad-hoc documents refused) before the guard parses */
  trusted: TrustedDocuments;
  limits: GatewayLimits;
  /** serves instanceStatusChanged itself */
  status: StatusService;
  /** counts refusals by code (metrics) */
  refused: (code: string) => void;
  /** requests by operation name: count, errors, latency */
  requests: RequestMetrics;
  /** counts an admitted operation's uses of deprecated fields (metrics) */
  deprecated: (fields: readonly string[], operation: string) => void;
  /** serves the IDE's page to a browser's GET /graphql; null: the IDE is off, and such a GET is an API request */
  ide: ((req: IncomingMessage, res: ServerResponse) => void) | null;
}

/**
 * Everything that happens to an operation before the engine sees it, shared by HTTP, SSE and
 * WebSocket: authentication first (nothing is read or parsed for an anonymous caller), then
 * the tenant's rate, then the trusted-documents lookup (in `require` mode an ad-hoc document is
 * refused unparsed), then the operation guard. Only then is it planned and executed.
 */
export class FrontDoor {
  readonly operations: TenantRate;
  readonly subscriptions: TenantRate;
  private guard: OperationGuard;
  constructor(readonly opts: FrontDoorOptions) {
    this.guard = opts.guard;
    this.operations = new TenantRate(opts.limits.operationsPerSecond, opts.limits.operationsBurst, 'operations');
    this.subscriptions = new TenantRate(
      opts.limits.subscriptionsPerSecond,
      opts.limits.subscriptionsBurst,
      'subscription opens',
    );
  }

  /** Checks operations against another schema from now on (a supergraph reload). */
  useGuard(guard: OperationGuard) {
    this.guard = guard;
  }

  authenticate(authorization: unknown) {
    return authenticate(this.opts.verify, authorization);
  }

  /**
   * Rate, trusted documents, then guard: what is left is an operation the engine may run for this
   * caller. `op.params` is what the engine gets (a trusted document in place of its id).
   */
  admit(principal: Principal, params: GraphQLParams): GuardedOperation {
    this.operations.take(principal.tenant);
    const trusted = this.opts.trusted.resolve(params);
    const op = this.guard.check(trusted.params, principal);
    if (op.operation.operation === OperationTypeNode.SUBSCRIPTION) this.subscriptions.take(principal.tenant);
    if (op.deprecated.length)
      this.opts.deprecated(op.deprecated, op.operationName ?? op.operation.name?.value ?? 'anonymous');
    return trusted.documentId ? { ...op, documentId: trusted.documentId } : op;
  }

  /** POST and GET /graphql. */
  handle(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const named = { handler: 'refused' };
    // on close, not finish: a request whose caller went away is counted too
    res.once('close', () =>
      this.opts.requests.observe(named.handler, performance.now() - started, res.statusCode >= 500),
    );
    const accept = req.headers.accept;
    this.serve(req, res, named).catch((err) => {
      const errors = refusalErrors(err);
      if (errors) {
        this.opts.refused(String(errors[0].extensions.code));
        return refuse(res, errors, accept);
      }
      if (err instanceof BodyTooLarge) {
        this.opts.refused('LIMIT_EXCEEDED');
        // the client may still be sending: the rest is read and dropped (up to a bound) before the
        // connection closes, or the reset would reach the client before the answer does
        res.setHeader('connection', 'close');
        const { maxBodyBytes, maxDiscardBytes } = this.opts.limits;
        return refuse(
          res,
          [
            fail('LIMIT_EXCEEDED', `the request body exceeds ${maxBodyBytes} bytes, the limit`, {
              limit: maxBodyBytes,
              http: { status: 413 },
            }),
          ],
          accept,
          discardBody(req, maxDiscardBytes),
        );
      }
      // the client went away and its work was stopped: nobody to answer, nothing went wrong
      if (res.destroyed && (err as Error)?.name === 'AbortError') return;
      log.error('request failed', err);
      if (!res.headersSent)
        refuse(res, [fail('INTERNAL_SERVER_ERROR', 'Internal server error', { http: { status: 500 } })], accept);
      else res.end();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse, named: { handler: string }) {
    const { limits } = this.opts;
    const url = new URL(req.url ?? '/', 'http://gateway.internal');
    const accept = req.headers.accept ?? '';
    if (this.opts.ide && req.method === 'GET' && !url.searchParams.has('query') && prefersHtml(accept)) {
      // the IDE's page: static, and every request it then makes authenticates like any other
      named.handler = 'ide';
      return this.opts.ide(req, res);
    }
    if (req.method !== 'POST' && req.method !== 'GET') {
      throw fail('BAD_USER_INPUT', 'use POST (or GET for queries) on /graphql', {
        http: { status: 405, headers: { allow: 'GET, POST' } },
      });
    }
    const principal = await this.authenticate(req.headers.authorization);
    let params: GraphQLParams;
    let body: string | undefined;
    if (req.method === 'POST') {
      checkContentType(req.headers['content-type']);
      const declared = Number(req.headers['content-length']);
      if (declared > limits.maxBodyBytes) throw new BodyTooLarge(`declared ${declared} bytes`);
      body = await readBody(req, limits.maxBodyBytes);
      params = parseBody(body);
    } else {
      params = {
        query: url.searchParams.get('query'),
        operationName: url.searchParams.get('operationName'),
        variables: parseJsonParam(url.searchParams.get('variables'), 'variables'),
        extensions: parseJsonParam(url.searchParams.get('extensions'), 'extensions'),
        documentId: url.searchParams.get('documentId'),
      };
    }
    const op = this.admit(principal, params);
    // GET must not change anything (GraphQL over HTTP): a link or a prefetch would otherwise mutate
    if (req.method === 'GET' && op.operation.operation === OperationTypeNode.MUTATION)
      throw fail('BAD_USER_INPUT', 'a mutation is sent with POST; GET runs queries only', {
        http: { status: 405, headers: { allow: 'POST' } },
      });
    // a trusted document's id (or an id this gateway ignores): the engine gets the document itself
    if (op.params !== params) {
      const { query, operationName, variables, extensions } = op.params;
      if (body !== undefined) body = JSON.stringify({ query, operationName, variables, extensions });
      else url.search = forwardSearch(op.params);
    }
    named.handler = `${op.operation.operation}:${op.operationName ?? op.operation.name?.value ?? 'anonymous'}`;
    const status = op.operation.operation === OperationTypeNode.SUBSCRIPTION ? statusOperation(op) : null;
    if (status) {
      if (!accept.includes('text/event-stream'))
        throw fail('BAD_USER_INPUT', 'subscriptions need Accept: text/event-stream (SSE) or a WebSocket', {
          http: { status: 406 },
        });
      const lastEventId = req.headers['last-event-id'];
      return this.opts.status.serveSse(
        res,
        status,
        op,
        principal.tenant,
        typeof lastEventId === 'string' ? lastEventId : null,
      );
    }
    await this.execute(req, res, principal, url, body);
  }

  /** Hands an admitted operation to the engine, with the per-request timeout. */
  private async execute(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    url: URL,
    body: string | undefined,
  ) {
    const abort = new AbortController();
    let expired = false;
    const timedOut = new Promise<'timeout'>((resolve) => {
      // settled before the abort: the engine answers an aborted request at once, and that answer must not win
      const timer = setTimeout(() => {
        expired = true;
        resolve('timeout');
        abort.abort();
      }, this.opts.limits.requestTimeoutMs);
      timer.unref();
      abort.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    });
    // a client that went away stops its work too
    const gone = () => abort.abort();
    res.once('close', gone);
    try {
      const headers: Record<string, string> = { accept: req.headers.accept ?? 'application/json' };
      // the caller's trace context (the engine's span continues it) and request id
      for (const h of ['traceparent', 'tracestate', 'x-request-id'] as const) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      if (body !== undefined) headers['content-type'] = 'application/json';
      const pending = Promise.resolve(
        this.opts.runtime.fetch(
          `http://gateway.internal/graphql${url.search}`,
          { method: req.method, headers, body, signal: abort.signal },
          { tenant: principal.tenant, principal },
        ),
      );
      const response = await Promise.race([pending, timedOut]);
      if (response === 'timeout' || expired) {
        pending.catch(() => undefined);
        throw fail(
          'TIMEOUT',
          `the operation did not finish within ${this.opts.limits.requestTimeoutMs} ms; a mutation may still complete: read the object before retrying`,
          { limit: this.opts.limits.requestTimeoutMs, http: { status: 504 } },
        );
      }
      await pipeResponse(res, response);
    } finally {
      res.off('close', gone);
      if (!abort.signal.aborted) abort.abort();
    }
  }
}

function parseBody(body: string): GraphQLParams {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw fail(
      'BAD_USER_INPUT',
      `the request body is not JSON (${(err as Error).message.slice(0, 120)}); send {"query": "...", "variables": {...}}`,
      { http: { status: 400 }, cause: err },
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw fail(
      'BAD_USER_INPUT',
      'the request body must be one JSON object {"query", "variables", "operationName"}; batches are not accepted',
      { http: { status: 400 } },
    );
  }
  return parsed;
}

function forwardSearch(p: GraphQLParams): string {
  const search = new URLSearchParams({ query: String(p.query) });
  if (typeof p.operationName === 'string') search.set('operationName', p.operationName);
  if (p.variables != null) search.set('variables', JSON.stringify(p.variables));
  if (p.extensions != null) search.set('extensions', JSON.stringify(p.extensions));
  return `?${search}`;
}

function parseJsonParam(value: string | null, name: string): unknown {
  if (value == null || value === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw fail('BAD_USER_INPUT', `the ${name} parameter is not JSON`, { field: name });
  }
}
