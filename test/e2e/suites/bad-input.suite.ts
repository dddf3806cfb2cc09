import {
  CreateFunctionDocument,
  DeployFunctionVersionDocument,
  FunctionsDocument,
  FunctionVersionDocument,
  UpdateGpuSpecificationDocument,
} from '@nvcf/client';
import type { System } from '@nvcf/local';
import { httpClient, ok, errorCode, helmFunction, l40s, deployedHelm } from '@nvcf/test';
import { fast, type MakeSystem } from './system.js';

/** Bad input: a registry code, a message that says what to do, nothing stored, nothing crashed. */
export function badInputSuite(name: string, make: MakeSystem) {
  describe(`${name}: bad input`, () => {
    let system: System;
    const a = () => httpClient(system.url, 'dev-token-a');
    const functionIds = async () =>
      ok(await a()(FunctionsDocument, {}))
        .functions.map((f) => f.id)
        .sort();
    beforeAll(async () => {
      system = await make(fast);
    });
    afterAll(async () => {
      // every service is still alive after all of the below
      for (const url of [system.gateway.url, ...Object.values(system.services)])
        expect((await fetch(`${url}/health`)).status).toBe(200);
      await system?.dispose();
    });

    it.each([
      ['no workload', { name: 'x' }, 'BAD_USER_INPUT', 'exactly one of container, helm or operator'],
      [
        'two workloads',
        { name: 'x', container: { image: 'i' }, helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        'BAD_USER_INPUT',
        'container and helm',
      ],
      [
        'a bad chart',
        { name: 'x', helm: { chart: 'https://example/c.tgz', serviceName: 's' } },
        'BAD_USER_INPUT',
        'oci://',
      ],
      [
        'a bad service name',
        { name: 'x', helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 'Not_DNS' } },
        'BAD_USER_INPUT',
        'DNS-1123',
      ],
      [
        'an empty name',
        { name: '', helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        'BAD_USER_INPUT',
        '1 to 128 characters',
      ],
      [
        'a long name',
        { name: 'n'.repeat(129), helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        'BAD_USER_INPUT',
        '1 to 128 characters',
      ],
      [
        'a bad port',
        { name: 'x', inferencePort: 70000, helm: { chart: 'oci://r/c-1.0.0.tgz', serviceName: 's' } },
        'BAD_USER_INPUT',
        'between 1 and 65535',
      ],
    ])('createFunction with %s is refused and stores nothing', async (_what, input, code, message) => {
      const before = await functionIds();
      const r = await a()(CreateFunctionDocument, { input: input as any });
      expect(errorCode(r)).toBe(code);
      expect(r.errors![0].message).toContain(message);
      expect(await functionIds()).toEqual(before);
    });

    it.each([
      ['min > max', l40s({ minInstances: 3, maxInstances: 2 }), 'BAD_USER_INPUT', 'must not exceed maxInstances'],
      ['a zero max', l40s({ minInstances: 0, maxInstances: 0 }), 'BAD_USER_INPUT', 'maxInstances must be > 0'],
      ['a concurrency out of range', l40s({ maxRequestConcurrency: 2000 }), 'BAD_USER_INPUT', 'between 1 and 1024'],
      ['a non-object configuration', l40s({ configuration: [1] }), 'BAD_USER_INPUT', 'must be a JSON object'],
      ['an unknown GPU', l40s({ gpu: 'B200' }), 'NO_ELIGIBLE_CLUSTER', 'no eligible cluster'],
      ['operator-only fields', l40s(), 'BAD_USER_INPUT', 'operator workloads only'],
    ])(
      'deployFunctionVersion with %s is refused; the version stays INACTIVE with no deployment',
      async (what, spec, code, message) => {
        const { versionId } = await helmFunction(a());
        const input =
          what === 'operator-only fields'
            ? { gpuSpecifications: [spec], serviceName: 'svc', servicePort: 80 }
            : { gpuSpecifications: [spec] };
        const r = await a()(DeployFunctionVersionDocument, { versionId, input });
        expect(errorCode(r)).toBe(code);
        expect(r.errors![0].message).toContain(message);
        const v = ok(await a()(FunctionVersionDocument, { id: versionId })).functionVersion!;
        expect([v.status, v.deployment]).toEqual(['INACTIVE', null]);
      },
    );

    it('deploying twice is a CONFLICT; instance bounds are validated on update', async () => {
      const d = await deployedHelm(a(), { minInstances: 1, maxInstances: 2 });
      expect(
        errorCode(
          await a()(DeployFunctionVersionDocument, { versionId: d.versionId, input: { gpuSpecifications: [l40s()] } }),
        ),
      ).toBe('CONFLICT');
      const r = await a()(UpdateGpuSpecificationDocument, { id: d.specId, input: { minInstances: 5 } });
      expect(errorCode(r)).toBe('BAD_USER_INPUT');
      expect(errorCode(await a()(UpdateGpuSpecificationDocument, { id: d.specId, input: {} }))).toBe('BAD_USER_INPUT');
    });

    it('malformed requests get a clear error, not a crash', async () => {
      const post = (body: string) =>
        fetch(system.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
          body,
        });
      const notJson = await post('{"query": ');
      expect(notJson.status).toBeGreaterThanOrEqual(400);
      const unknownField = (await (await post(JSON.stringify({ query: '{ nope }' }))).json()) as {
        errors: { message: string }[];
      };
      expect(unknownField.errors[0].message).toContain('nope');
      const badVar = (await (
        await post(JSON.stringify({ query: 'query($id: ID!) { function(id: $id) { id } }', variables: {} }))
      ).json()) as { errors: { message: string }[] };
      expect(badVar.errors[0].message).toContain('$id');
    });
  });
}
