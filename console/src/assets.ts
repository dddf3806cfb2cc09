import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PAGE_CONFIG_PLACEHOLDER, renderPageConfig, type PageConfig } from './page-config.js';

/** Where `npm run build` puts the pages (console/dist/web); the same path from src/ and from dist/. */
export const defaultWebDir = (): string => fileURLToPath(new URL('../dist/web/', import.meta.url));

/** the pages: the IDE (GET /graphql) and the console's single page (every route under /console/) */
export type PageName = 'ide' | 'console';
const PAGE_FILES: Record<PageName, string> = { ide: 'ide.html', console: 'index.html' };

/**
 * Every page loads only from the gateway's own origin: no CDN, no inline script. Styles may be
 * inline because monaco and GraphiQL set element styles from script; workers are same-origin files.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.ttf', '.txt', '.wasm']);
/** Vite's `[name]-[hash].[ext]` under assets/: the name changes with the content, so it may be cached for good */
const HASHED = /^assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export class WebAssetsMissing extends Error {
  override name = 'WebAssetsMissing';
}

interface Entry {
  file: string;
  type: string;
  immutable: boolean;
  etag: string;
  body: Buffer;
  gzipped?: Promise<Buffer>;
}

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
const gzipAsync = promisify(gzip);

/** Every file under `dir`, relative to it, '/'-separated; dot files (the build's stamp) are not served. */
function walk(dir: string, prefix = ''): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, rel) : [rel];
  });
}

/**
 * The built pages and their assets, read once into memory (a few MB; a build never changes under
 * a running gateway). A request can only name a file of that list, so no path leaves the folder.
 */
export class WebAssets {
  private readonly files = new Map<string, Entry>();
  private readonly pages = new Map<PageName, Buffer>();
  /** each page rendered once per configuration (a gateway has one), its ETag and gzip kept with it */
  private readonly rendered = new WeakMap<PageConfig, Map<PageName, Entry>>();

  private constructor(readonly dir: string) {
    for (const rel of walk(dir)) {
      const body = fs.readFileSync(path.join(dir, rel));
      const ext = path.extname(rel).toLowerCase();
      this.files.set(rel, {
        file: rel,
        type: TYPES[ext] ?? 'application/octet-stream',
        immutable: HASHED.test(rel),
        etag: etagOf(body),
        body,
      });
    }
    for (const [name, file] of Object.entries(PAGE_FILES) as [PageName, string][]) {
      const html = this.files.get(file)?.body;
      if (!html) throw new WebAssetsMissing(`${path.join(dir, file)} is missing: run npm run build`);
      if (!html.includes(PAGE_CONFIG_PLACEHOLDER))
        throw new WebAssetsMissing(
          `${path.join(dir, file)} has no ${PAGE_CONFIG_PLACEHOLDER} to put the page's configuration in`,
        );
      this.pages.set(name, html);
      this.files.delete(file); // served only with its configuration, by page()
    }
  }

  /** Reads the build in `dir`; WebAssetsMissing when there is none (`npm run build` makes it). */
  static load(dir: string = defaultWebDir()): WebAssets {
    if (!fs.existsSync(dir)) throw new WebAssetsMissing(`${dir} does not exist: run npm run build`);
    return new WebAssets(dir);
  }

  /** Whether `rel` (a path under the build, e.g. `assets/ide-1a2b3c4d.js`) is a file of it. */
  has(rel: string): boolean {
    return this.files.has(rel);
  }

  /**
   * A page with its configuration: never cached without asking (the configuration is the
   * deployment's), with the CSP that keeps it on this origin.
   */
  servePage(req: IncomingMessage, res: ServerResponse, name: PageName, config: PageConfig): void {
    let byName = this.rendered.get(config);
    if (!byName) this.rendered.set(config, (byName = new Map<PageName, Entry>()));
    let entry = byName.get(name);
    if (!entry) {
      const body = Buffer.from(
        this.pages.get(name)!.toString('utf8').replace(PAGE_CONFIG_PLACEHOLDER, renderPageConfig(config)),
      );
      byName.set(
        name,
        (entry = { file: PAGE_FILES[name], type: TYPES['.html'], immutable: false, etag: etagOf(body), body }),
      );
    }
    this.send(req, res, entry, HTML_HEADERS);
  }

  /** A file of the build by its relative path; 404 for any other (no directory listing, no fallback). */
  serveFile(req: IncomingMessage, res: ServerResponse, rel: string): void {
    const entry = this.files.get(rel);
    if (!entry) {
      res.writeHead(404, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(`not found: ${rel}\n`);
      return;
    }
    this.send(req, res, entry, {});
  }

  private send(req: IncomingMessage, res: ServerResponse, entry: Entry, extra: Record<string, string>): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('use GET\n');
      return;
    }
    const headers: Record<string, string> = {
      ...extra,
      'content-type': entry.type,
      etag: entry.etag,
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
      'cache-control': entry.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const gzipOk =
      COMPRESSIBLE.has(path.extname(entry.file)) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const write = (body: Buffer, encoding?: string) => {
      res.writeHead(200, {
        ...headers,
        'content-length': String(body.length),
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (!gzipOk) return write(entry.body);
    // compressed once per file and kept: monaco's JavaScript is large, level 9 too slow to repeat per request
    entry.gzipped ??= gzipAsync(entry.body, { level: 9 });
    entry.gzipped.then(
      (z) => write(z, 'gzip'),
      () => write(entry.body),
    );
  }
}
