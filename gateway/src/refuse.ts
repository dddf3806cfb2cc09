import type { ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { sendJson } from '@nvcf/http';

type HttpHint = { status?: number; headers?: Record<string, string> };

/**
 * Answers a request refused before execution: the errors with their registry codes, and the
 * HTTP status and headers the first one asks for (`extensions.http`, never shown to the
 * client); 400 when it asks for none.
 */
export function refuse(res: ServerResponse, errors: readonly GraphQLError[]) {
  const hint = (errors[0]?.extensions.http ?? {}) as HttpHint;
  const body = {
    errors: errors.map((e) => {
      const { http: _h, ...extensions } = e.extensions;
      return { message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions };
    }),
  };
  if (res.headersSent || res.destroyed) return;
  sendJson(res, hint.status ?? 400, body, hint.headers ?? {});
}
