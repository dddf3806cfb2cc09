/**
 * Just enough of the CQL native protocol (v4) to probe a Cassandra node:
 * OPTIONS -> SUPPORTED (readiness) and STARTUP + QUERY on system.local (local DC).
 */
import net from 'node:net';
import { ProtocolError } from './errors.js';

const VERSION = 0x04;
const OP = { ERROR: 0x00, STARTUP: 0x01, READY: 0x02, OPTIONS: 0x05, SUPPORTED: 0x06, QUERY: 0x07, RESULT: 0x08 };
const HEADER = 9;

interface Frame {
  opcode: number;
  body: Buffer;
}

function encodeFrame(stream: number, opcode: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const h = Buffer.alloc(HEADER);
  h.writeUInt8(VERSION, 0);
  h.writeUInt8(0, 1); // flags
  h.writeInt16BE(stream, 2);
  h.writeUInt8(opcode, 4);
  h.writeUInt32BE(body.length, 5);
  return Buffer.concat([h, body]);
}

const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
};

function stringMap(m: Record<string, string>): Buffer {
  const n = Buffer.alloc(2);
  n.writeUInt16BE(Object.keys(m).length);
  return Buffer.concat([n, ...Object.entries(m).flatMap(([k, v]) => [str(k), str(v)])]);
}

/** Opens one connection, runs `fn` with a request/response function, always closes. */
async function withConnection<T>(
  host: string,
  port: number,
  timeoutMs: number,
  fn: (req: (opcode: number, body?: Buffer) => Promise<Frame>) => Promise<T>,
): Promise<T> {
  const sock = net.connect({ host, port });
  let buf = Buffer.alloc(0);
  let waiter: { resolve: (f: Frame) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure ??= e;
    waiter?.reject(failure);
    waiter = undefined;
  };
  const pump = () => {
    if (!waiter || buf.length < HEADER) return;
    const len = buf.readUInt32BE(5);
    if (buf.length < HEADER + len) return;
    const f = { opcode: buf.readUInt8(4), body: buf.subarray(HEADER, HEADER + len) };
    buf = buf.subarray(HEADER + len);
    const w = waiter;
    waiter = undefined;
    w.resolve(f);
  };
  sock.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    pump();
  });
  sock.on('error', fail);
  sock.on('close', () => fail(new ProtocolError(`connection to ${host}:${port} closed`)));
  sock.setTimeout(timeoutMs, () => fail(new ProtocolError(`CQL probe of ${host}:${port} timed out`)));
  let stream = 0;
  const req = (opcode: number, body?: Buffer) =>
    new Promise<Frame>((resolve, reject) => {
      if (failure) return reject(failure);
      waiter = { resolve, reject };
      sock.write(encodeFrame(stream++, opcode, body));
      pump();
    });
  try {
    return await fn(req);
  } finally {
    sock.destroy();
  }
}

function errorOf(f: Frame): ProtocolError {
  if (f.opcode !== OP.ERROR) return new ProtocolError(`unexpected CQL opcode 0x${f.opcode.toString(16)}`);
  const code = f.body.readInt32BE(0);
  const msg = f.body.subarray(6, 6 + f.body.readUInt16BE(4)).toString('utf8');
  return new ProtocolError(`CQL error 0x${code.toString(16)}: ${msg}`);
}

/** True when host:port answers an OPTIONS request with SUPPORTED. */
export async function cqlSupported(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  try {
    return await withConnection(host, port, timeoutMs, async (req) => (await req(OP.OPTIONS)).opcode === OP.SUPPORTED);
  } catch {
    return false;
  }
}

/** Reads the first column of the first row of a Rows result whose columns are text. */
function firstTextCell(body: Buffer): string | undefined {
  let o = 0;
  const int = () => ((o += 4), body.readInt32BE(o - 4));
  const short = () => ((o += 2), body.readUInt16BE(o - 2));
  const skipString = () => {
    const n = short(); // read first: `o += short()` would add to the stale `o`
    o += n;
  };
  if (int() !== 2) return undefined; // kind != Rows
  const flags = int();
  const cols = int();
  if (flags & 0x0002) o += 4 + Math.max(0, body.readInt32BE(o)); // paging state
  if (!(flags & 0x0004)) {
    if (flags & 0x0001) {
      skipString(); // global keyspace
      skipString(); // and table
    }
    for (let i = 0; i < cols; i++) {
      if (!(flags & 0x0001)) {
        skipString(); // keyspace
        skipString(); // table
      }
      skipString(); // column name
      if (short() === 0x0000) skipString(); // custom type class; text/varchar need no more
    }
  }
  if (int() < 1) return undefined;
  const len = int();
  return len < 0 ? undefined : body.subarray(o, o + len).toString('utf8');
}

/** The data center reported by the node's snitch (system.local.data_center). */
export async function cqlLocalDc(host: string, port: number, timeoutMs = 5000): Promise<string> {
  return withConnection(host, port, timeoutMs, async (req) => {
    const ready = await req(OP.STARTUP, stringMap({ CQL_VERSION: '3.0.0' }));
    if (ready.opcode !== OP.READY) throw errorOf(ready);
    const q = Buffer.from('SELECT data_center FROM system.local', 'utf8');
    const qlen = Buffer.alloc(4);
    qlen.writeUInt32BE(q.length);
    const params = Buffer.from([0x00, 0x01, 0x00]); // consistency ONE, no flags
    const res = await req(OP.QUERY, Buffer.concat([qlen, q, params]));
    if (res.opcode !== OP.RESULT) throw errorOf(res);
    const dc = firstTextCell(res.body);
    if (!dc) throw new ProtocolError('system.local returned no data_center');
    return dc;
  });
}
