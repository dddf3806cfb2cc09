/** test:cluster global teardown: stops the cluster when this run started it (see global-setup.ts). */
import type { ClusterGlobal } from './global-setup.js';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as ClusterGlobal).__nvcfClusterDown?.();
}
