import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens (port 0 = ephemeral) and returns the bound base URL. */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return `http://${host}:${addr.port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
