import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, annotate, contextFrom, failSpan, startSpan } from '@nvcf/telemetry';

/** Starts the SERVER span of one HTTP request (`POST /graphql`, `POST /internal/rpc/{method}`); it ends with the response. */
export function serverSpan(req: IncomingMessage, res: ServerResponse, path: string) {
  const route = path.startsWith('/internal/rpc/') ? '/internal/rpc/{method}' : path;
  const method = req.method ?? 'GET';
  const local = req.socket.localPort;
  const started = startSpan(`${method} ${route}`, {
    kind: SpanKind.SERVER,
    parent: contextFrom(req.headers),
    attributes: {
      'http.request.method': method,
      'url.path': path,
      'url.scheme': 'http',
      'http.route': route,
      ...(local ? { 'server.port': local } : {}),
      ...(path !== route ? { 'rpc.method': path.slice('/internal/rpc/'.length) } : {}),
    },
  });
  if (!started) return undefined;
  const { span, ctx } = started;
  const end = () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) failSpan(span, new Error(`HTTP ${res.statusCode}`));
    span.end();
  };
  res.once('finish', end);
  res.once('close', () => {
    if (!res.writableFinished) {
      failSpan(span, new Error('connection closed'));
      span.end();
    }
  });
  return ctx;
}

/** The GraphQL operation's type and name on the request's span (semantic conventions for GraphQL servers). */
export const operationAttributes = {
  async requestDidStart() {
    return {
      async didResolveOperation(rc: { operationName?: string | null; operation?: { operation: string } | null }) {
        annotate({
          'graphql.operation.type': rc.operation?.operation ?? 'query',
          ...(rc.operationName ? { 'graphql.operation.name': rc.operationName } : {}),
        });
      },
    };
  },
};
