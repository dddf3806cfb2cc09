import type { InstanceStatus, StatusStore } from './types.js';
import { matches } from '@nvcf/status-stream';

export function createMemoryStatusStore(): StatusStore {
  const rows = new Map<string, InstanceStatus>();
  const store: StatusStore = {
    async record(s) {
      const cur = rows.get(s.instanceId);
      if (cur && cur.clock >= s.clock) return;
      rows.set(s.instanceId, { ...s });
    },
    async get(ids) {
      return ids.map((id) => {
        const r = rows.get(id);
        return r ? { ...r } : null;
      });
    },
    async list(ncaId, filter) {
      return [...rows.values()].filter((r) => r.ncaId === ncaId && matches(filter, r)).map((r) => ({ ...r }));
    },
    async dispose() {},
    async [Symbol.asyncDispose]() {},
  };
  return store;
}
