// Apollo Gateway 2.x as its documentation sets it up: node index.mjs <supergraph file> <port>
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { ApolloGateway } from '@apollo/gateway';
import { startStandaloneServer } from '@apollo/server/standalone';

const [file, port] = process.argv.slice(2);
const server = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl: readFileSync(file, 'utf8') }) });
const { url } = await startStandaloneServer(server, { listen: { port: Number(port), host: '127.0.0.1' } });
console.log(`gateway ready ${url}graphql`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
