import { startWatch, type KubeClient, type KubeObject, type Watcher } from '@nvcf/agent/kubernetes';
import { Steps } from './timers.js';

export interface Controller {
  watcher: Watcher;
  dispose(): Promise<void>;
}

export interface GenerationControllerOptions {
  apiVersion: string;
  kind: string;
  labelSelector: string;
  log: (msg: string) => void;
  /** true when this generation needs nothing more (a restarted simulator skips it) */
  settled(obj: KubeObject): boolean;
  /** starts work on a new generation: `steps` schedules what follows, under `key` */
  start(obj: KubeObject, steps: Steps, key: string): Promise<void>;
}

export const objectKey = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * Watches a kind and works once on every generation of every object, the way a controller
 * reconciles. Events arrive for our own status writes too; a generation already taken on is
 * left alone until a newer one replaces it.
 */
export function generationController(client: KubeClient, o: GenerationControllerOptions): Controller {
  const steps = new Steps(o.log);
  const taken = new Map<string, number>(); // object → the generation we work on

  const onObject = (obj: KubeObject) => {
    const id = objectKey(obj);
    const gen = obj.metadata.generation ?? 1;
    if (taken.get(id) === gen || o.settled(obj)) return;
    steps.cancel(`${id}@`);
    taken.set(id, gen);
    const key = `${id}@${gen}`;
    steps.after(key, 0, () => o.start(obj, steps, key));
  };

  const watcher = startWatch(client, {
    apiVersion: o.apiVersion,
    kind: o.kind,
    labelSelector: o.labelSelector,
    log: o.log,
    onEvent: (type, obj) => {
      const full = { ...obj, apiVersion: o.apiVersion, kind: o.kind };
      if (type !== 'DELETED') return onObject(full);
      steps.cancel(`${objectKey(full)}@`);
      taken.delete(objectKey(full));
    },
  });
  return {
    watcher,
    async dispose() {
      steps.stop();
      await watcher.dispose();
    },
  };
}

/** The object, when it still is at `gen` (a newer generation has steps of its own). */
export async function stillAt(client: KubeClient, obj: KubeObject, gen: number): Promise<KubeObject | null> {
  const cur = await client.get(obj);
  return cur && cur.metadata.generation === gen ? { ...cur, apiVersion: obj.apiVersion, kind: obj.kind } : null;
}

/** Writes the whole status this simulator manages (Server-Side Apply on the status subresource). */
export const applyStatus = (client: KubeClient, obj: KubeObject, status: Record<string, unknown>, manager: string) =>
  client.apply(
    {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { name: obj.metadata.name, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}) },
      status,
    },
    manager,
    'status',
  );
