// The load generator, in its own process so it can be pinned away from the gateway.
// tsx bench/queries/load.ts <url> <seconds> <connections>   prints one JSON line
import autocannon from 'autocannon';
import { isExpectedAnswer, requestBody, requestHeaders } from './request.js';

const [url, seconds, connections] = process.argv.slice(2);

const result = await autocannon({
  url: url,
  method: 'POST',
  headers: requestHeaders,
  body: requestBody(),
  duration: Number(seconds),
  connections: Number(connections),
  pipelining: 1,
  // every response is checked; a wrong one counts as a mismatch, not a request served
  verifyBody: isExpectedAnswer,
} as autocannon.Options);
const bad = result.mismatches + result.non2xx + result.errors + result.timeouts;
console.log(
  JSON.stringify({
    requests: result.requests.total,
    correct: result.requests.total - result.mismatches - result.non2xx,
    mismatches: result.mismatches,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bad,
    rps: Math.round((result.requests.total - result.mismatches - result.non2xx) / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    seconds: result.duration,
  }),
);
