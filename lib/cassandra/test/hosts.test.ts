import { createRequire } from 'node:module';
import { createCassandraClient } from '../src/index.js';
import { cassandraConnection, describeCassandra } from './harness.js';

// the driver's own Host, as its control connection builds one (not part of its public surface)
const { Host } = createRequire(import.meta.url)('cassandra-driver/lib/host.js') as {
  Host: new (address: string, protocolVersion: number, options: unknown, metadata: unknown) => DriverHost;
};
interface DriverHost {
  address: string;
  _healthResponseCountTimer: (NodeJS.Timeout & { _destroyed?: boolean }) | null;
  pool: { isClosing(): boolean };
}
interface DriverClient {
  hosts: { values(): DriverHost[]; set(address: string, host: DriverHost): void };
  options: unknown;
  metadata: unknown;
  controlConnection: { protocolVersion: number };
}

describeCassandra('a host the driver drops from its map (Cassandra)', () => {
  it('is shut down, so its pool and timers do not outlive the client', async () => {
    await using client = await createCassandraClient(cassandraConnection());
    const driver = client as unknown as DriverClient;
    const [old] = driver.hosts.values();
    expect(old.pool.isClosing()).toBe(false);
    expect(old._healthResponseCountTimer?._destroyed).toBe(false);
    // what the control connection does when it initialises again after every node was down
    const replacement = new Host(
      old.address,
      driver.controlConnection.protocolVersion,
      driver.options,
      driver.metadata,
    );
    driver.hosts.set(old.address, replacement);
    expect(driver.hosts.values()).toEqual([replacement]);
    expect(old.pool.isClosing()).toBe(true);
    expect(old._healthResponseCountTimer?._destroyed).toBe(true);
    // the host in use is not touched
    expect(replacement.pool.isClosing()).toBe(false);
  });
});
