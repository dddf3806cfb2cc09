import { readFileSync } from 'node:fs';

const here = (file: string) => new URL(file, import.meta.url);

/** The benchmark's TestQuery as the request every gateway gets. */
export const requestBody = () => JSON.stringify({ query: readFileSync(here('test-query.graphql'), 'utf8'), operationName: 'TestQuery' });

/** The response the benchmark expects (equal, field for field, to the expectation in its k6 script). */
export const expectedBody = () => readFileSync(here('expected-response.json'), 'utf8');

// our gateway requires a tenant; the peers ignore the header
export const requestHeaders = { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer dev-token-a' };
