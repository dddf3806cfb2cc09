import net from 'node:net';

export interface TcpProxy extends AsyncDisposable {
  /** 127.0.0.1:<port>, the same across cut() and restore() */
  address: string;
  /** Drops every connection and refuses new ones: a network partition for its clients only. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  /** Sends new connections to another server (a restarted gateway); open ones stay where they are. */
  retarget(target: { host: string; port: number }): void;
}

/**
 * A loopback TCP forwarder to `target` that a test can cut: one client (a gateway replica's
 * NATS connection) loses the server while everything else keeps it.
 */
export async function startTcpProxy(initial: { host: string; port: number }): Promise<TcpProxy> {
  let target = initial;
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target);
        track(client);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    address: `127.0.0.1:${port}`,
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    retarget: (next) => {
      target = next;
    },
    [Symbol.asyncDispose]: cut,
  };
}
