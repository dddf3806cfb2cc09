import type { Bus } from '@nvcf/bus';
import type { ClusterRecord } from '../src/index.js';
import { createMemoryIcmsStore } from '../src/index.js';
import { icmsHandlers } from '../src/icms.js';

/** ICMS's handlers on a memory store holding `clusters` (of provider, usable by nca-a), over a bus that records what they publish. */
export async function handlersWith<M>(
  clusters: (Pick<ClusterRecord, 'id' | 'gpus' | 'regions'> & Partial<ClusterRecord>)[],
) {
  const store = createMemoryIcmsStore();
  for (const c of clusters)
    await store.putCluster({
      name: c.id,
      ncaId: 'provider',
      authorizedNcaIds: ['nca-a'],
      attributes: [],
      dedicatedTo: null,
      ...c,
    });
  const published: { subject: string; msg: M; msgId?: string }[] = [];
  const bus = {
    publish: async (subject: string, msg: M, o?: { msgId?: string }) => {
      published.push({ subject, msg, msgId: o?.msgId });
      return { seq: published.length, duplicate: false };
    },
  } as unknown as Bus;
  return { store, published, icms: icmsHandlers(store, bus) };
}
