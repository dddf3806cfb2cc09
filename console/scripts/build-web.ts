/**
 * The web half of `npm run build` (after tsc -b): Vite builds the IDE and the console into
 * console/dist/web unless that build is of the current sources already.
 *
 *   npm run build:web              builds when stale
 *   npm run build:web -- --force   always builds
 */
import { ensureWebBuild, WebBuildFailed } from '../src/build.js';

try {
  const r = await ensureWebBuild({
    force: process.argv.includes('--force'),
    log: (text) => process.stdout.write(text),
  });
  if (r.built) process.stdout.write(` done in ${(r.ms / 1000).toFixed(1)} s\n`);
} catch (err) {
  console.error(err instanceof WebBuildFailed ? `\nweb build failed: ${err.message}` : err);
  process.exit(1);
}
