import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const tsx = 'node_modules/.bin/tsx';
const peer = (name: string) => `bench/peers/${name}`;

export interface GatewaySpec {
  key: 'ours' | 'hive_rust_qp' | 'apollo_gateway' | 'mercurius' | 'ceiling';
  label: string;
  /** command and args, given the supergraph file, the subgraphs' base URL and the port */
  command(supergraph: string, base: string, port: number): { cmd: string; args: string[]; cwd?: string };
  peer?: string;
}

export const gateways: GatewaySpec[] = [
  {
    key: 'ours',
    label: 'ours (gateway/, Hive runtime + Rust planner + our plugins)',
    command: (sg, _b, port) => ({
      cmd: tsx,
      args: ['--conditions=source', 'bench/queries/gateways/ours.ts', sg, String(port)],
    }),
  },
  {
    key: 'hive_rust_qp',
    label: 'Hive Gateway 2.15.1 + Rust query planner',
    peer: 'hive-gateway',
    command: (sg, _b, port) => ({
      cmd: 'node',
      args: [
        'node_modules/.bin/hive-gateway',
        'supergraph',
        sg,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--fork',
        '1',
      ],
      cwd: peer('hive-gateway'),
    }),
  },
  {
    key: 'apollo_gateway',
    label: 'Apollo Gateway 2.14.4 (Apollo Server 5.5.1)',
    peer: 'apollo-gateway',
    command: (sg, _b, port) => ({ cmd: 'node', args: ['index.mjs', sg, String(port)], cwd: peer('apollo-gateway') }),
  },
  {
    key: 'mercurius',
    label: 'Mercurius gateway 5.2.0 (Fastify 5.12.8)',
    peer: 'mercurius',
    command: (_sg, base, port) => ({ cmd: 'node', args: ['index.mjs', base, String(port)], cwd: peer('mercurius') }),
  },
  {
    key: 'ceiling',
    label: 'static server, same response body (ceiling)',
    command: (_sg, _b, port) => ({
      cmd: tsx,
      args: [
        '--conditions=source',
        'bench/queries/gateways/static.ts',
        'bench/queries/expected-response.json',
        String(port),
      ],
    }),
  },
];

/** Installs a peer from its lockfile the first time (the registry is the only source). */
export function ensurePeer(name: string) {
  if (existsSync(`${peer(name)}/node_modules`)) return;
  console.error(`installing bench peer ${name} (npm ci)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--workspaces=false'], {
    cwd: peer(name),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
