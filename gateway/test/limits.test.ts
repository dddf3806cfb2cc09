import { readFileSync } from 'node:fs';
import { renderGatewayLimitsDocs, defaultLimits, limitEnv } from '../src/limits.js';

describe('gateway limits', () => {
  it('docs/limits.md lists every gateway limit with its default (run npm run limits:docs)', () => {
    const committed = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');
    expect(committed).toContain(renderGatewayLimitsDocs());
    for (const env of Object.values(limitEnv)) expect(committed).toContain(`\`${env}\``);
    expect(renderGatewayLimitsDocs()).toContain('| `GATEWAY_MAX_TOKENS` | 1000 tokens | `LIMIT_EXCEEDED` |');
    expect(Object.keys(limitEnv).sort()).toEqual(Object.keys(defaultLimits).sort());
  });
});
