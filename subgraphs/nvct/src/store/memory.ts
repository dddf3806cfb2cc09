import { isTerminal, type TaskRecord } from '../model.js';
import { unannounced } from '../lifecycle.js';
import type { TaskStore } from './types.js';

const newestFirst = (a: TaskRecord, b: TaskRecord) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

export function createMemoryTaskStore(): TaskStore {
  const tasks = new Map<string, TaskRecord>();
  const dispose = async () => {};
  return {
    async create(t) {
      if (tasks.has(t.id)) throw new Error(`task ${t.id} exists`);
      tasks.set(t.id, structuredClone(t));
    },
    async get(ids) {
      return ids.map((id) => (tasks.has(id) ? structuredClone(tasks.get(id)!) : null));
    },
    async list(ncaId, { status, limit, after }) {
      return [...tasks.values()]
        .filter((t) => t.ncaId === ncaId && (!status || t.status === status))
        .sort(newestFirst)
        .filter((t) => !after || newestFirst(t, { ...t, ...after }) > 0)
        .slice(0, limit)
        .map((t) => structuredClone(t));
    },
    async replace(expectedSeq, next) {
      const cur = tasks.get(next.id);
      if (!cur || cur.seq !== expectedSeq) return false;
      tasks.set(next.id, structuredClone(next));
      return true;
    },
    async listOpen() {
      return [...tasks.values()].filter((t) => !isTerminal(t.status)).map((t) => structuredClone(t));
    },
    async listUnannounced() {
      return [...tasks.values()].filter(unannounced).map((t) => structuredClone(t));
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
