// The chaos run's setup on a ring it has just started: the JVMs are cold and a QUORUM write may
// outlast its timeout before any fault is injected. The API then answers UNAVAILABLE, "may or may
// not have been stored; read the object again, then retry" (docs/errors.md), and the setup does
// exactly that instead of failing the run before it begins.
import { FunctionVersionDocument } from '@nvcf/client';
import { ok, type HttpClient } from '../src/client.js';
import { deployHelm, helmFunction, l40s } from '../src/fixtures.js';
import { sleep } from './random.js';

const ATTEMPTS = 5;

async function retried<T>(
  what: string,
  step: () => Promise<T>,
  log: (line: string) => void,
  backoffMs: number,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      const message = (err as Error).message;
      if (attempt >= ATTEMPTS || !message.includes('"code":"UNAVAILABLE"')) throw err;
      log(`setup: ${what} answered UNAVAILABLE (attempt ${attempt} of ${ATTEMPTS}); reading back, then retrying`);
      await sleep(backoffMs * attempt);
    }
  }
}

/** A Helm function deployed with one specification of `minInstances` instances; its specification's id. */
export async function deploySpec(
  client: () => HttpClient,
  name: string,
  minInstances: number,
  log: (line: string) => void,
  backoffMs = 2000,
): Promise<string> {
  // a create retried after a lost answer may leave an undeployed function behind: it has no revision to check
  const { versionId } = await retried(`createFunction ${name}`, () => helmFunction(client(), name), log, backoffMs);
  return retried(
    `deployFunctionVersion ${versionId}`,
    async () => {
      const stored = ok(await client()(FunctionVersionDocument, { id: versionId })).functionVersion?.deployment;
      if (stored?.gpuSpecifications.length) return stored.gpuSpecifications[0].id;
      const [specId] = await deployHelm(client(), versionId, [l40s({ minInstances, maxInstances: minInstances })]);
      return specId;
    },
    log,
    backoffMs,
  );
}
