// Mercurius gateway on Fastify, composing from the subgraphs' `_service { sdl }`:
// node index.mjs <subgraph base url> <port>
import Fastify from 'fastify';
import mercuriusGateway from '@mercuriusjs/gateway';

const [base, port] = process.argv.slice(2);
const app = Fastify({ logger: false });
app.register(mercuriusGateway, {
  gateway: {
    services: ['accounts', 'inventory', 'products', 'reviews'].map((name) => ({ name, url: `${base}/${name}` })),
  },
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log(`gateway ready http://127.0.0.1:${port}/graphql`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
