import type { HttpClient } from '../src/client.js';
import { deploySpec } from './setup.js';

const unavailable = {
  errors: [
    {
      message: 'the database did not answer in time, so a change may or may not have been stored',
      extensions: { code: 'UNAVAILABLE' },
    },
  ],
};

/** A gateway stand-in: the deploy's first answer is lost (UNAVAILABLE) after it was stored, or before. */
function fakeGateway(o: { storedBeforeTimeout: boolean; deployError?: object }) {
  const calls: string[] = [];
  let deployment: { gpuSpecifications: { id: string }[] } | null = null;
  let deploys = 0;
  const client = (async (doc: { definitions: { name?: { value: string } }[] }) => {
    const op = doc.definitions[0].name!.value;
    calls.push(op);
    if (op === 'CreateFunction') return { data: { createFunction: { id: 'v-1', function: { id: 'f-1' } } } };
    if (op === 'FunctionVersion') return { data: { functionVersion: { id: 'v-1', deployment } } };
    if (op === 'DeployFunctionVersion') {
      deploys++;
      if (o.deployError) return o.deployError;
      const stored = { gpuSpecifications: [{ id: `spec-${deploys}` }] };
      if (deploys === 1) {
        if (o.storedBeforeTimeout) deployment = stored;
        return unavailable;
      }
      deployment = stored;
      return { data: { deployFunctionVersion: stored } };
    }
    throw new Error(`unexpected ${op}`);
  }) as unknown as HttpClient;
  return { client: () => client, calls };
}

describe('the chaos setup after a lost answer (a gateway stand-in: the retry logic only)', () => {
  it('reads a deployment whose answer was lost, and uses it rather than deploying again', async () => {
    const g = fakeGateway({ storedBeforeTimeout: true });
    const lines: string[] = [];
    expect(await deploySpec(g.client, 'chaos-0', 2, (l) => lines.push(l), 1)).toBe('spec-1');
    expect(g.calls).toEqual(['CreateFunction', 'FunctionVersion', 'DeployFunctionVersion', 'FunctionVersion']);
    expect(lines).toEqual([expect.stringContaining('deployFunctionVersion v-1 answered UNAVAILABLE (attempt 1 of 5)')]);
  });

  it('deploys again when the lost attempt stored nothing', async () => {
    const g = fakeGateway({ storedBeforeTimeout: false });
    expect(await deploySpec(g.client, 'chaos-0', 2, () => {}, 1)).toBe('spec-2');
    expect(g.calls.filter((c) => c === 'DeployFunctionVersion')).toHaveLength(2);
  });

  it('fails at once on anything but UNAVAILABLE', async () => {
    const refused = { errors: [{ message: 'no eligible cluster', extensions: { code: 'NO_ELIGIBLE_CLUSTER' } }] };
    const g = fakeGateway({ storedBeforeTimeout: false, deployError: refused });
    await expect(deploySpec(g.client, 'chaos-0', 2, () => {}, 1)).rejects.toThrow(/NO_ELIGIBLE_CLUSTER/);
    expect(g.calls.filter((c) => c === 'DeployFunctionVersion')).toHaveLength(1);
  });
});
