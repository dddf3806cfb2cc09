/**
 * The web build: two pages from one Vite build, served by the gateway from dist/web
 * (@nvcf/console's WebAssets). Every asset is bundled from npm, so no page makes a request
 * off the gateway's origin; hashed names let the gateway cache them forever.
 *
 *   ide.html    the GraphQL IDE, served at GET /graphql (Accept: text/html)
 *   index.html  the console, served at /console/ and every client-side route under it
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const web = fileURLToPath(new URL('./web/', import.meta.url));

export default defineConfig({
  root: web,
  // absolute: the IDE's page is at /graphql, not under /console/, and loads the same assets
  base: '/console/',
  // Vite's own transform (Oxc) compiles TSX; no plugin: a production bundle needs no Fast Refresh
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  // workspace packages (@nvcf/client) from their TypeScript sources: a fresh clone has no dist/ yet
  resolve: { conditions: ['source', ...defaultClientConditions] },
  publicDir: false,
  logLevel: 'warn',
  clearScreen: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/web/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // files the browser caches for good rather than data: URLs inside the scripts (and the CSP has no data: for scripts)
    assetsInlineLimit: 0,
    // monaco alone is several MB; it is loaded once and cached for good (hashed names)
    chunkSizeWarningLimit: 6000,
    reportCompressedSize: false,
    rolldownOptions: {
      input: { ide: `${web}ide.html`, console: `${web}index.html` },
      // framer-motion's "use client" marks server components; a client-only bundle has none
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  // monaco's workers import code-split chunks: only ES module workers can
  worker: { format: 'es' },
});
