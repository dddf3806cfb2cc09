import { createServer, request, Agent, type Server } from 'node:http';
import { closeServer, listen } from '../src/index.js';

/** GET with its own keep-alive agent; resolves with the body or rejects with the socket error. */
function get(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('closeServer', () => {
  let server: Server;
  let url: string;
  const agent = new Agent({ keepAlive: true });
  let release: () => void = () => {};
  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') release = () => res.end('slow done');
      else if (req.url === '/hang') res.write('started');
      else res.end('fast');
    });
    url = await listen(server, 0);
  });
  afterEach(() => {
    agent.destroy();
    server.closeAllConnections();
  });

  it('lets a request in flight finish and closes idle keep-alive connections at once', async () => {
    expect(await get(`${url}/fast`, agent)).toBe('fast'); // leaves an idle keep-alive socket
    const slow = get(`${url}/slow`, agent);
    await new Promise((r) => setTimeout(r, 50)); // the request has to reach the handler first
    let closed = false;
    const closing = closeServer(server, { graceMs: 10_000 }).then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    release();
    expect(await slow).toBe('slow done');
    await closing;
    expect(server.listening).toBe(false);
  });

  it('cuts a request that outlasts the grace period', async () => {
    const hung = get(`${url}/hang`, agent);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await closeServer(server, { graceMs: 200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await expect(hung).rejects.toThrow();
  });

  it('returns at once for a server that is not listening', async () => {
    await closeServer(server);
    await expect(closeServer(server)).resolves.toBeUndefined();
  });
});
