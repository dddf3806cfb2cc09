import { createNatsBus, type Bus } from '@nvcf/bus';
import { createCassandraClient, type CassandraClient } from '@nvcf/cassandra';
import { allStreams } from '@nvcf/contracts';
import { errorText, isOutage } from '@nvcf/errors';
import { createLogger } from '@nvcf/logging';

const log = createLogger('startup');

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5000;

/** A backend still not available when a service's start gave up waiting for it (STARTUP_TIMEOUT_MS). */
export class StartupTimeout extends Error {
  override name = 'StartupTimeout';
}

/**
 * Runs `attempt` until it succeeds. A failure that means "not available right now" (isOutage: a
 * NATS node restarting, JetStream electing its meta leader, a Cassandra ring without a quorum yet)
 * is retried with backoff and a log line each until `deadline` (epoch ms, one for a service's whole
 * start); any other failure (JetStream not offered at all, a refused configuration) ends the start
 * at once.
 */
export async function untilAvailable<T>(what: string, attempt: () => Promise<T>, deadline: number): Promise<T> {
  const started = Date.now();
  for (let n = 0; ; n++) {
    try {
      const value = await attempt();
      if (n > 0) log.info(`${what}: available after ${n} retr${n === 1 ? 'y' : 'ies'}`);
      return value;
    } catch (err) {
      if (!isOutage(err)) throw err;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new StartupTimeout(
          `${what} did not become available within ${Math.round((deadline - started) / 1000)} s`,
          {
            cause: err,
          },
        );
      const wait = Math.min(FIRST_RETRY_MS * 2 ** n, MAX_RETRY_MS, left);
      log.warn(
        `${what}: not available yet (${errorText(err)}); retrying in ${(wait / 1000).toFixed(1)} s, giving up in ${Math.ceil(left / 1000)} s`,
      );
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** When a service's start, begun now, gives up waiting for its backends. */
export const startupDeadline = (c: { startupTimeoutMs: number }) => Date.now() + c.startupTimeoutMs;

/** The service's bus, waited for (and this release's streams ensured, unless `ensureStreams` is false). */
export async function connectBus(
  c: { natsUrl: string; streamReplicas: number },
  name: string,
  deadline: number,
  opts: { ensureStreams?: boolean } = {},
): Promise<Bus> {
  const bus = await untilAvailable(
    `NATS JetStream at ${c.natsUrl}`,
    () => createNatsBus({ servers: c.natsUrl, name, streamReplicas: c.streamReplicas }),
    deadline,
  );
  if (opts.ensureStreams === false) return bus;
  try {
    await untilAvailable('the streams', () => bus.ensureStreams(allStreams), deadline);
  } catch (err) {
    await bus.dispose();
    throw err;
  }
  return bus;
}

/** The service's Cassandra session, waited for. */
export function connectCassandra(
  c: { cassandra: { contactPoints: string[]; localDataCenter: string } },
  deadline: number,
): Promise<CassandraClient> {
  return untilAvailable(
    `Cassandra at ${c.cassandra.contactPoints.join(',')}`,
    () =>
      createCassandraClient({
        contactPoints: c.cassandra.contactPoints,
        localDataCenter: c.cassandra.localDataCenter,
      }),
    deadline,
  );
}
