/**
 * The IDE and the console as HTTP resources: served from the gateway's own build, with a CSP
 * that names no other origin, cacheable for good when hashed, and nothing else reachable
 * through them. The build itself references no CDN.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { startSystem, type System } from '@nvcf/local';
import { ensureWebBuild } from '@nvcf/console/build';
import { CONTENT_SECURITY_POLICY, PAGE_CONFIG_ID, type PageConfig } from '@nvcf/console';
import { waitUntil } from '@nvcf/testing';

const html = { accept: 'text/html,application/xhtml+xml' };

/** A GET with the path sent as written (fetch would normalise `..` away before it leaves). */
function rawGet(base: string, rawPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const u = new URL(base);
      const req = request({ host: u.hostname, port: u.port, path: rawPath, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.once('error', reject);
      req.end();
    },
  );
}

function pageConfig(page: string): PageConfig {
  const m = new RegExp(`<script type="application/json" id="${PAGE_CONFIG_ID}">(.*?)</script>`).exec(page);
  if (!m) throw new Error('no page configuration in the page');
  return JSON.parse(m[1]) as PageConfig;
}

let webDir: string;
beforeAll(async () => {
  webDir = (await ensureWebBuild()).dir;
}, 180_000);

describe('the web build', () => {
  const files = () =>
    fs.readdirSync(webDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(html|js|css)$/.test(f));

  it('loads nothing from a CDN or any other origin', () => {
    const cdn = /unpkg|jsdelivr|esm\.sh|cdnjs|googleapis|gstatic|\bcdn\./i;
    expect(files().filter((f) => cdn.test(fs.readFileSync(path.join(webDir, f), 'utf8')))).toEqual([]);
    for (const page of ['ide.html', 'index.html']) {
      const text = fs.readFileSync(path.join(webDir, page), 'utf8');
      const refs = [...text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(refs.length).toBeGreaterThan(0);
      expect(refs.filter((r) => !r.startsWith('/console/assets/'))).toEqual([]);
      expect(text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
    }
    // stylesheets load fonts and images from the build (or inline data), never from a URL elsewhere
    const css = files()
      .filter((f) => f.endsWith('.css'))
      .flatMap((f) =>
        [...fs.readFileSync(path.join(webDir, f), 'utf8').matchAll(/url\(\s*['"]?([^'")]+)/g)].map((m) => m[1]),
      );
    expect(
      css.filter((u) => !u.startsWith('/console/assets/') && !u.startsWith('data:') && !u.startsWith('#')),
    ).toEqual([]);
    expect(
      files().filter((f) => /@import\s+(url\()?['"]?https?:/.test(fs.readFileSync(path.join(webDir, f), 'utf8'))),
    ).toEqual([]);
  });
});

describe('the IDE and the console, served by the gateway', () => {
  let system: System;
  beforeAll(async () => {
    system = await startSystem({ graphiql: true, console: true });
  });
  afterAll(async () => system?.dispose());

  it('serves the IDE at GET /graphql to a browser, with the CSP, no caching and the development tokens', async () => {
    const r = await fetch(system.url, { headers: html });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    const page = await r.text();
    expect(pageConfig(page)).toEqual({
      graphqlPath: '/graphql',
      authMode: 'dev',
      pages: { ide: true, console: true },
      devTokens: [
        { token: 'dev-token-a', tenant: 'nca-a' },
        { token: 'dev-token-b', tenant: 'nca-b' },
      ],
    });
    // the API itself is unchanged: a GET with a query, or without a browser's Accept, is a GraphQL request
    expect((await fetch(`${system.url}?query={__typename}`, { headers: html })).status).toBe(401);
    expect((await fetch(system.url)).status).toBe(401);
  });

  it('serves hashed assets for good, with their content type, gzip and ETags', async () => {
    const page = await (await fetch(system.url, { headers: html })).text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)![1];
    const style = /href="(\/console\/assets\/[^"]+\.css)"/.exec(page)![1];
    const js = await rawGet(system.gateway.url, script, { 'accept-encoding': 'gzip, br' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(js.body).equals(fs.readFileSync(path.join(webDir, script.slice('/console/'.length))))).toBe(true);
    const again = await rawGet(system.gateway.url, script, { 'if-none-match': String(js.headers.etag) });
    expect(again.status).toBe(304);
    expect((await rawGet(system.gateway.url, style)).headers['content-type']).toBe('text/css; charset=utf-8');
    const worker = fs.readdirSync(path.join(webDir, 'assets')).find((f) => f.startsWith('graphql.worker'));
    expect(worker).toBeDefined(); // monaco's workers are part of the build, not fetched from elsewhere
  });

  it('serves the console and its client-side routes, and nothing outside the build', async () => {
    const redirect = await fetch(`${system.gateway.url}/console`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/console/']);
    for (const route of ['/console/', '/console/functions/abc']) {
      const r = await fetch(`${system.gateway.url}${route}`, { headers: html });
      expect([route, r.status, r.headers.get('content-security-policy')]).toEqual([
        route,
        200,
        CONTENT_SECURITY_POLICY,
      ]);
      expect(await r.text()).toContain('id="root"');
    }
    for (const p of [
      '/console/assets/nope-12345678.js',
      '/console/favicon.ico',
      '/console/assets/../../package.json',
      '/console/assets/..%2f..%2fpackage.json',
      '/console/..%2f..%2fpackage.json',
      '/console/%2e%2e/%2e%2e/package.json',
      '/console/.build-hash',
    ]) {
      const r = await rawGet(system.gateway.url, p);
      expect([p, r.status]).toEqual([p, 404]);
    }
    expect((await rawGet(system.gateway.url, '/console/%E0%A4%A')).status).toBe(404);
  });
});

describe('pages turned off, and production sign-in', () => {
  it('GRAPHIQL=off and CONSOLE=off: GET /graphql is an API request and /console is not served', async () => {
    await using system = await startSystem({ graphiql: false, console: false });
    const r = await fetch(system.url, { headers: html });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/json/);
    expect((await fetch(`${system.gateway.url}/console/`, { headers: html })).status).toBe(404);
    expect((await fetch(`${system.gateway.url}/console/assets/x.js`)).status).toBe(404);
  });

  it('the console alone still serves its assets, and the IDE stays off', async () => {
    await using system = await startSystem({ graphiql: false, console: true });
    expect((await fetch(system.url, { headers: html })).status).toBe(401);
    const page = await (await fetch(`${system.gateway.url}/console/`, { headers: html })).text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)![1];
    expect((await fetch(`${system.gateway.url}${script}`)).status).toBe(200);
  });

  it('puts no token in a page in jwt mode, and never a token other than the published development ones', async () => {
    await using jwt = await startSystem({
      graphiql: true,
      console: true,
      pageAuth: { mode: 'jwt', devTokens: { 'dev-token-a': 'nca-a' } },
    });
    expect(pageConfig(await (await fetch(jwt.url, { headers: html })).text())).toMatchObject({
      authMode: 'jwt',
      devTokens: [],
    });
    await using own = await startSystem({
      graphiql: true,
      pageAuth: { mode: 'dev', devTokens: { 'a-real-secret': 'nca-a', 'dev-token-b': 'nca-b' } },
    });
    const page = await (await fetch(own.url, { headers: html })).text();
    expect(page).not.toContain('a-real-secret');
    expect(pageConfig(page).devTokens).toEqual([{ token: 'dev-token-b', tenant: 'nca-b' }]);
  });
});

describe('a gateway started before the build', () => {
  it('answers 503 with what to run, then serves the build once it is there', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-web-'));
    const later = path.join(dir, 'web');
    try {
      await using system = await startSystem({ graphiql: true, console: true, webDir: later });
      const before = await fetch(system.url, { headers: html });
      expect([before.status, await before.text()]).toEqual([503, expect.stringContaining('npm run build')]);
      fs.cpSync(webDir, later, { recursive: true });
      await waitUntil(async () => (await fetch(system.url, { headers: html })).status === 200, {
        what: 'the IDE once built',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
