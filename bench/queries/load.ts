// The load generator, in its own process so it can be pinned away from the gateway.
// tsx bench/queries/load.ts <url> <seconds> <connections>   prints one JSON line
import autocannon from 'autocannon';
import { isDeepStrictEqual } from 'node:util';
import { expectedBody, requestBody, requestHeaders } from './request.js';

const [url, seconds, connections] = process.argv.slice(2);
const expected = expectedBody();
const expectedValue = JSON.parse(expected);
// every response is checked: byte-equal is the fast path, structural equality the fallback
// (gateways may order keys or add extensions differently without being wrong)
const correct = (body: string) => body === expected || isDeepStrictEqual(withoutExtensions(JSON.parse(body)), expectedValue);
const withoutExtensions = ({ extensions: _, ...rest }: Record<string, unknown>) => rest;

const result = await autocannon({
  url: url!, method: 'POST', headers: requestHeaders, body: requestBody(),
  duration: Number(seconds), connections: Number(connections), pipelining: 1,
  verifyBody: (body: string) => { try { return correct(body); } catch { return false; } },
} as autocannon.Options);
const bad = result.mismatches + result.non2xx + result.errors + result.timeouts;
console.log(JSON.stringify({
  requests: result.requests.total, correct: result.requests.total - result.mismatches - result.non2xx,
  mismatches: result.mismatches, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, bad,
  rps: Math.round((result.requests.total - result.mismatches - result.non2xx) / result.duration),
  p50_ms: result.latency.p50, p99_ms: result.latency.p99, seconds: result.duration,
}));
