import { DisposalStack } from '@nvcf/lifecycle';
import { startOurGateway } from '../our-gateway.js';
import { startBenchSubgraphs } from '../subgraphs/serve.js';
import { benchSupergraph } from '../compose.js';
import { expectedBody, isExpectedAnswer, requestBody, requestHeaders } from '../request.js';

// The query benchmark only counts correct answers: this keeps our side of it honest in CI.
describe('query benchmark (graphql-gateways-benchmark)', () => {
  it('our gateway answers TestQuery over the benchmark subgraphs exactly as the benchmark expects', async () => {
    await using stack = new DisposalStack();
    const subgraphs = stack.use(await startBenchSubgraphs());
    const gateway = stack.use(await startOurGateway(benchSupergraph(subgraphs.base)));
    const res = await fetch(gateway.graphqlUrl, { method: 'POST', headers: requestHeaders, body: requestBody() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(expectedBody()));
  });

  it('a wrong answer is told apart: the expected body is the full nested response, not a shape', () => {
    const expected = JSON.parse(expectedBody());
    expect(expected.data.users).toHaveLength(6);
    expect(expected.data.topProducts.map((p: { name: string }) => p.name)).toEqual([
      'Table',
      'Couch',
      'Glass',
      'Chair',
      'TV',
    ]);
    expect(expected.data.topProducts[3].reviews.map((r: { id: string }) => r.id)).toEqual(['10', '11']);
    // the check every benchmark response goes through
    expect(isExpectedAnswer(expectedBody())).toBe(true);
    expect(isExpectedAnswer(JSON.stringify({ extensions: { cost: 1 }, data: expected.data }))).toBe(true);
    const wrong = structuredClone(expected);
    wrong.data.topProducts[3].reviews[1].author.reviews[0].product.shippingEstimate = 50;
    expect(isExpectedAnswer(JSON.stringify(wrong))).toBe(false);
    expect(isExpectedAnswer('{"errors":[{"message":"boom"}]}')).toBe(false);
    expect(isExpectedAnswer('not json')).toBe(false);
  });
});
