/**
 * Jest global teardown: stops the services this run started, and nothing it merely reused.
 * The setup left the way to do that on a global (jest loads these files as CommonJS, where
 * a relative import of a sibling .ts module does not resolve).
 */
import type { ServicesGlobal } from './jest-global-setup.js';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as ServicesGlobal).__nvcfServicesDown?.();
}
