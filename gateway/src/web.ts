import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEV_TOKENS } from '@nvcf/auth';
import { WebAssets, WebAssetsMissing, type PageConfig } from '@nvcf/console';
import { createLogger } from '@nvcf/logging';
import { acceptRanges } from './media.js';

const log = createLogger('gateway');

export interface WebPagesOptions {
  /** the GraphQL IDE at GET /graphql (Accept: text/html) */
  ide: boolean;
  /** the console at /console/ */
  console: boolean;
  /** how callers sign in; `devTokens` are the tokens the gateway accepts in `dev` mode (token → tenant) */
  auth: { mode: 'dev' | 'jwt'; devTokens?: Record<string, string> };
  /** the build (@nvcf/console's dist/web by default) */
  dir?: string;
}

const PREFIX = '/console/';

/**
 * Whether an Accept header asks for a page first: a browser's navigation (`text/html,…`), not a
 * GraphQL client that merely lists HTML among what it takes.
 */
export function prefersHtml(accept: string): boolean {
  let best: { type: string; q: number } | undefined;
  // q=0 is "not acceptable" (RFC 9110)
  for (const r of acceptRanges(accept)) if (r.q > 0 && (!best || r.q > best.q)) best = r;
  return best?.type === 'text/html';
}

const NOT_BUILT = 'the web pages are not built yet: run npm run build (npm start builds them itself)\n';

/**
 * The IDE and the console, both built by @nvcf/console and served from this origin only (their
 * CSP allows no other). The pages are public, like any login page: what they do afterwards is
 * authenticated like every other request. A development token is put in a page only when it is
 * one of the published ones (DEV_TOKENS): a deployment's own AUTH_TOKENS never leave it.
 */
export class WebPages {
  private loaded: WebAssets | null = null;
  private lastTry = 0;
  private readonly config: PageConfig;

  constructor(private readonly opts: WebPagesOptions) {
    if (!this.assets())
      log.warn(
        `${opts.ide ? 'the IDE' : ''}${opts.ide && opts.console ? ' and ' : ''}${opts.console ? 'the console' : ''} will answer 503 until ${opts.dir ?? 'console/dist/web'} is built (npm run build)`,
      );
    const offered =
      opts.auth.mode === 'dev'
        ? Object.entries(opts.auth.devTokens ?? {})
            .filter(([token, tenant]) => DEV_TOKENS[token] === tenant)
            .map(([token, tenant]) => ({ token, tenant }))
        : [];
    this.config = {
      graphqlPath: '/graphql',
      authMode: opts.auth.mode,
      devTokens: offered,
      pages: { ide: opts.ide, console: opts.console },
    };
  }

  /** The build; looked for again (once a second at most) while there is none: a build made after the start is served. */
  private assets(): WebAssets | null {
    if (this.loaded || Date.now() - this.lastTry < 1000) return this.loaded;
    this.lastTry = Date.now();
    try {
      this.loaded = WebAssets.load(this.opts.dir);
    } catch (err) {
      if (!(err instanceof WebAssetsMissing)) throw err;
    }
    return this.loaded;
  }

  /** GET /graphql from a browser: the IDE's page (only when the IDE is on). */
  serveIde(req: IncomingMessage, res: ServerResponse): void {
    const assets = this.assets();
    if (!assets) {
      notBuilt(res);
      return;
    }
    assets.servePage(req, res, 'ide', this.config);
  }

  /** Answers /console and everything under it; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path === '/console') {
      // relative asset URLs resolve against the folder: the page lives at /console/
      const query = (req.url ?? '').slice(path.length);
      res.writeHead(308, { location: `${PREFIX}${query}`, 'cache-control': 'no-cache' });
      res.end();
      return true;
    }
    if (!path.startsWith(PREFIX)) return false;
    let rel: string;
    try {
      rel = decodeURIComponent(path.slice(PREFIX.length));
    } catch {
      return notFound(res, path);
    }
    // the IDE loads its scripts from /console/assets/ too, so they are served while either is on
    if (!rel.startsWith('assets/') && !this.opts.console) return notFound(res, path);
    const assets = this.assets();
    if (!assets) return notBuilt(res);
    if (rel.startsWith('assets/') || assets.has(rel)) {
      assets.serveFile(req, res, rel);
      return true;
    }
    // a file that is not there (a name with a dot) is a 404; any other path is one of the console's own routes
    if (rel.split('/').at(-1)!.includes('.')) return notFound(res, path);
    assets.servePage(req, res, 'console', this.config);
    return true;
  }
}

function notFound(res: ServerResponse, path: string): true {
  res.writeHead(404, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(`not found: ${path}\n`);
  return true;
}

function notBuilt(res: ServerResponse): true {
  res.writeHead(503, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(NOT_BUILT);
  return true;
}
