import { readFileSync } from 'node:fs';
import { int, oneOf, pairs, required, str, ConfigError, type Env } from '@nvcf/config';
import { jwtTokens, staticTokens, type TokenVerifier } from '@nvcf/auth';
import { readSupergraph } from '@nvcf/schema';
import { readServiceConfig, readBusConfig, readInternalSecret, readCursorSecret, url } from '@nvcf/service';
import { defaultLimits, limitEnv, type GatewayLimits } from './limits.js';
import {
  loadTrustedDocuments,
  trustedModes,
  TrustedDocumentsInvalid,
  defaultTrustedDocumentsFile,
} from './guard/trusted.js';

/** Every gateway limit from its variable (docs/limits.md); rates of 0 turn rate limiting off. */
export function readGatewayLimits(env: Env): GatewayLimits {
  const limits = { ...defaultLimits };
  for (const key of Object.keys(limitEnv) as (keyof GatewayLimits)[]) {
    const rate = key === 'operationsPerSecond' || key === 'subscriptionsPerSecond';
    limits[key] = int(env, limitEnv[key], defaultLimits[key], { min: rate ? 0 : 1 });
  }
  return limits;
}

/** Production auth: JWTs checked against issuer, audience and JWKS (dev tokens are not JWTs, so they fail). */
export function readJwtConfig(env: Env) {
  const hint = 'AUTH_MODE=jwt needs the identity provider';
  return {
    issuer: required(env, 'JWT_ISSUER', hint),
    audience: required(env, 'JWT_AUDIENCE', hint),
    jwksUrl: required(env, 'JWT_JWKS_URL', hint),
    tenantClaim: str(env, 'JWT_TENANT_CLAIM', 'ncaId'),
    introspectionClaim: str(env, 'JWT_INTROSPECTION_CLAIM', 'nvcf:introspection'),
  };
}

/** What AUTH_MODE and AUTH_TOKENS mean when the environment does not set them. */
export interface AuthDefaults {
  mode: 'jwt' | 'dev';
  /** the tokens AUTH_MODE=dev accepts without AUTH_TOKENS */
  devTokens: Record<string, string>;
}

/**
 * Static tokens exist for development only: the gateway service accepts them when AUTH_MODE=dev
 * is set and AUTH_TOKENS names them, never by default.
 */
const serviceAuth: AuthDefaults = { mode: 'jwt', devTokens: {} };

function readVerifier(
  env: Env,
  defaults: AuthDefaults,
): { mode: 'jwt' | 'dev'; verify: TokenVerifier; tokens?: Record<string, string> } {
  const mode = oneOf(env, 'AUTH_MODE', ['jwt', 'dev'] as const, defaults.mode);
  if (mode === 'jwt') return { mode, verify: jwtTokens(readJwtConfig(env)) };
  const tokens = pairs(env, 'AUTH_TOKENS', { ...defaults.devTokens });
  if (!Object.keys(tokens).length)
    throw new ConfigError(
      "AUTH_MODE=dev needs AUTH_TOKENS ('token1=tenant1,token2=tenant2'): no token is accepted by default",
    );
  return { mode, verify: staticTokens(tokens), tokens };
}

/**
 * The pages the gateway serves (GRAPHIQL, CONSOLE). The IDE is a development tool, off by
 * default in production (jwt); the console is the product's own UI, signed in with a token like
 * any client, so it is on in both modes.
 */
export function readWebPages(env: Env, authMode: 'dev' | 'jwt') {
  return {
    graphiql: oneOf(env, 'GRAPHIQL', ['on', 'off'] as const, authMode === 'jwt' ? 'off' : 'on') === 'on',
    console: oneOf(env, 'CONSOLE', ['on', 'off'] as const, 'on') === 'on',
  };
}

function readSupergraphFile(env: Env): string {
  const file = env.SUPERGRAPH_FILE;
  if (!file) return readSupergraph();
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`SUPERGRAPH_FILE=${file} cannot be read: ${(cause as Error).message}`);
  }
}

/**
 * Trusted documents (docs/schema.md): the mode, and the manifest, checked here so that a bad file
 * is one configuration error. Default `allow`: `require` once every client sends ids.
 */
export function readTrustedDocuments(env: Env) {
  const mode = oneOf(env, 'TRUSTED_DOCUMENTS', trustedModes, 'allow');
  const file = str(env, 'TRUSTED_DOCUMENTS_FILE', defaultTrustedDocumentsFile());
  let manifest: ReadonlyMap<string, string> | undefined;
  if (mode !== 'off') {
    try {
      manifest = loadTrustedDocuments(file);
    } catch (err) {
      if (err instanceof TrustedDocumentsInvalid) throw new ConfigError(`TRUSTED_DOCUMENTS_FILE: ${err.message}`);
      throw err;
    }
  }
  // the manifest as read and checked here: the gateway takes it as is instead of reading the file again
  return { trustedDocuments: mode, trustedDocumentsFile: file, trustedManifest: manifest };
}

/**
 * How the gateway treats its clients: authentication, and what depends on its mode (introspection,
 * the pages), limits and trusted documents. The gateway service and `npm start` (whose defaults
 * are AUTH_MODE=dev with the development tokens) both read it here, so a default has one owner.
 */
export function readGatewayPolicy(env: Env, authDefaults: AuthDefaults = serviceAuth) {
  const auth = readVerifier(env, authDefaults);
  return {
    authMode: auth.mode,
    verify: auth.verify,
    introspection: oneOf(
      env,
      'INTROSPECTION',
      ['authenticated', 'claim'] as const,
      auth.mode === 'jwt' ? 'claim' : 'authenticated',
    ),
    ...readWebPages(env, auth.mode),
    pageAuth: { mode: auth.mode, devTokens: auth.tokens },
    limits: readGatewayLimits(env),
    ...readTrustedDocuments(env),
  };
}
export type GatewayPolicy = ReturnType<typeof readGatewayPolicy>;

/** Everything the gateway service reads, once, at start (docs/configuration.md). */
export function readGatewayConfig(env: Env) {
  const hint = "the subgraph's base URL, e.g. http://nvcf:4001";
  return {
    ...readServiceConfig(env, { port: 4000 }),
    ...readBusConfig(env),
    metricsPort: int(env, 'METRICS_PORT', 9464, { min: 0, max: 65535 }),
    metricsHost: str(env, 'METRICS_HOST', '127.0.0.1'),
    subgraphs: {
      nvcf: `${url(env, 'NVCF_URL', hint)}/graphql`,
      icms: `${url(env, 'ICMS_URL', hint)}/graphql`,
      'nvca-status': `${url(env, 'NVCA_STATUS_URL', hint)}/graphql`,
      nvct: `${url(env, 'NVCT_URL', hint)}/graphql`,
    },
    supergraph: readSupergraphFile(env),
    // read again on SIGHUP and whenever it changes (a ConfigMap update): docs/deploy.md
    supergraphFile: env.SUPERGRAPH_FILE || undefined,
    secret: readInternalSecret(env),
    cursorSecret: readCursorSecret(env),
    ...readGatewayPolicy(env),
  };
}
export type GatewayConfig = ReturnType<typeof readGatewayConfig>;
