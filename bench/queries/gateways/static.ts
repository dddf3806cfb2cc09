// The ceiling: a plain HTTP server answering every request with the expected TestQuery body.
// tsx bench/queries/gateways/static.ts <response file> <port>
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [file, port] = process.argv.slice(2);
const body = Buffer.from(readFileSync(file, 'utf8'));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body),
  );
});
server.listen(Number(port), '127.0.0.1', () => console.log(`gateway ready http://127.0.0.1:${port}/graphql`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
