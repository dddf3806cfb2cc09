import type { ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { sendJson } from '@nvcf/http';
import { GRAPHQL_RESPONSE, responseMedia } from './media.js';

/**
 * `status` is the answer's HTTP status; `jsonStatus`, when set, the one for a client that takes
 * application/json only: GraphQL over HTTP answers a request error (parse, validation, variables)
 * 200 in JSON and 4xx in application/graphql-response+json.
 */
export type HttpHint = { status?: number; jsonStatus?: number; headers?: Record<string, string> };

/**
 * Answers a request refused before execution: the errors with their registry codes, and the
 * HTTP status and headers the first one asks for (`extensions.http`, never shown to the
 * client); 400 when it asks for none. The body is in the media type the Accept header prefers.
 */
export function refuse(
  res: ServerResponse,
  errors: readonly GraphQLError[],
  accept?: string,
  /** the answer's end waits for it (a body still being discarded) */
  endAfter?: Promise<void>,
) {
  const hint = (errors[0]?.extensions.http ?? {}) as HttpHint;
  const body = {
    errors: errors.map((e) => {
      const { http: _h, ...extensions } = e.extensions;
      return { message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions };
    }),
  };
  if (res.headersSent || res.destroyed) return;
  const media = responseMedia(accept);
  const status = media === 'json' && hint.jsonStatus !== undefined ? hint.jsonStatus : (hint.status ?? 400);
  const type: Record<string, string> =
    media === 'graphql-response' ? { 'content-type': `${GRAPHQL_RESPONSE}; charset=utf-8` } : {};
  sendJson(res, status, body, { ...type, ...hint.headers }, { endAfter });
}
