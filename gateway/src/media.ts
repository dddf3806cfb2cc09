import { fail } from '@nvcf/errors';

/** GraphQL over HTTP's own response type; a client that asks for it gets 4xx for request errors. */
export const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** The body types a POST may carry: JSON, and the GraphQL response type some clients send as well. */
const REQUEST_TYPES = new Set(['application/json', GRAPHQL_RESPONSE]);

interface MediaRange {
  type: string;
  q: number;
}

/** An Accept header's media ranges, lower-cased, each with its quality (0 when unreadable). */
export function acceptRanges(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    if (!type) continue;
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1);
    out.push({ type, q: Number.isFinite(q) ? q : 0 });
  }
  return out;
}

/**
 * The media type a refusal is written in, by the Accept header (GraphQL over HTTP, "Accept"):
 * `graphql-response` when the client names application/graphql-response+json at least as high as
 * JSON; `json` when it takes JSON (a missing header included: the spec's legacy default); `other`
 * when it takes neither (an event stream).
 */
export function responseMedia(accept: string | undefined): 'graphql-response' | 'json' | 'other' {
  if (!accept?.trim()) return 'json';
  let graphql = 0;
  let json = 0;
  for (const r of acceptRanges(accept)) {
    if (r.type === GRAPHQL_RESPONSE) graphql = Math.max(graphql, r.q);
    else if (r.type === 'application/json' || r.type === 'application/*' || r.type === '*/*')
      json = Math.max(json, r.q);
  }
  if (graphql > 0 && graphql >= json) return 'graphql-response';
  return json > 0 ? 'json' : 'other';
}

/**
 * A POST body must be declared JSON (GraphQL over HTTP: a server SHOULD refuse other types with
 * 4xx). Without this a text/plain POST, which a browser sends cross-origin with no CORS preflight,
 * would run; and a body without a type would be guessed at. Only UTF-8 is read, so another charset
 * is refused rather than misread.
 */
export function checkContentType(header: string | undefined) {
  const [type = '', ...params] = (header ?? '')
    .toLowerCase()
    .split(';')
    .map((p) => p.trim());
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8);
  if (!REQUEST_TYPES.has(type)) {
    throw fail(
      'BAD_USER_INPUT',
      `${header ? `Content-Type ${type} is` : 'a POST without Content-Type is'} not accepted: send the body as application/json`,
      { field: 'content-type', http: { status: 415, headers: { 'accept-post': [...REQUEST_TYPES].join(', ') } } },
    );
  }
  if (charset && charset.replace(/"/g, '') !== 'utf-8') {
    throw fail('BAD_USER_INPUT', `charset ${charset} is not accepted: send the body as application/json in UTF-8`, {
      field: 'content-type',
      http: { status: 415, headers: { 'accept-post': [...REQUEST_TYPES].join(', ') } },
    });
  }
}
