import {
  applyListedInstances,
  applyStatusEvent,
  type GpuSpecificationQuery,
  type InstanceState,
  type RolloutInstance,
  type WatchItem,
} from '@nvcf/client';
import { connecting, connectionAfter, type Connection } from './live.js';

export type Spec = NonNullable<GpuSpecificationQuery['gpuSpecification']>;

/** One instance as its tile shows it, folded by the client's rollout reducer as the CLI folds it. */
export type Tile = RolloutInstance;

export type LogEntry =
  | {
      kind: 'transition';
      key: string;
      cursor: string;
      at: string;
      instanceId: string;
      cluster: string;
      state: InstanceState;
      previousState: InstanceState | null;
      revisionId: string | null;
      targetRevisionId: string | null;
      message: string | null;
    }
  | { kind: 'note'; key: string; at: string; tone: 'info' | 'warn'; text: string };

export interface RolloutState {
  spec: Spec | null;
  tiles: Tile[];
  /** newest first */
  log: LogEntry[];
  connection: Connection;
}

export type RolloutAction =
  { type: 'spec'; spec: Spec } | { type: 'watch'; item: WatchItem } | { type: 'ended'; reason: string };

export const initialRollout: RolloutState = { spec: null, tiles: [], log: [], connection: connecting };

const MAX_LOG = 1000;
let noteSeq = 0;
const note = (tone: 'info' | 'warn', text: string): LogEntry => ({
  kind: 'note',
  key: `note-${++noteSeq}`,
  at: new Date().toISOString(),
  tone,
  text,
});
const push = (log: LogEntry[], entry: LogEntry) => [entry, ...log].slice(0, MAX_LOG);
/** the log with a warning on top */
const warn = (log: LogEntry[], text: string) => push(log, note('warn', text));
const byId = (a: Tile, b: Tile) => a.cluster.name.localeCompare(b.cluster.name) || a.id.localeCompare(b.id);

export function rolloutReducer(s: RolloutState, a: RolloutAction): RolloutState {
  switch (a.type) {
    case 'spec': {
      const known = new Map(s.tiles.map((t) => [t.id, t]));
      const tiles = applyListedInstances(known, a.spec.instances, a.spec.latestRevision?.id ?? null);
      return { ...s, spec: a.spec, tiles: [...tiles.values()].sort(byId) };
    }
    case 'watch': {
      const item = a.item;
      switch (item.type) {
        case 'connected': {
          const resumed = item.attempt > 0 || s.connection.status === 'reconnecting';
          return {
            ...s,
            connection: connectionAfter(s.connection, item),
            log: resumed
              ? push(
                  s.log,
                  note(
                    'info',
                    item.after
                      ? 'reconnected: resumed after the last event received'
                      : 'reconnected: starting from the current state',
                  ),
                )
              : s.log,
          };
        }
        case 'reconnecting': {
          const first = s.connection.status !== 'reconnecting';
          return {
            ...s,
            connection: connectionAfter(s.connection, item),
            log: first ? warn(s.log, `connection lost (${item.error.code}); reconnecting`) : s.log,
          };
        }
        case 'expired':
          return {
            ...s,
            log: warn(
              s.log,
              'the resume point expired: starting again from the current state (events in between are not shown)',
            ),
          };
        case 'lag':
          return {
            ...s,
            log: warn(
              s.log,
              `${item.skippedEvents} transitions of instance ${item.instanceId} were conflated (the page fell behind)`,
            ),
          };
        case 'event': {
          const e = item.event;
          const idx = s.tiles.findIndex((t) => t.id === e.instance.id);
          const prev = idx < 0 ? undefined : s.tiles[idx];
          const next = applyStatusEvent(prev, e, s.spec?.latestRevision?.id ?? null);
          // a duplicate or a replayed older event: neither the tiles nor the log change
          if (next === prev) return s;
          const tiles = idx < 0 ? [...s.tiles, next].sort(byId) : s.tiles.map((t, i) => (i === idx ? next : t));
          if (e.kind !== 'TRANSITION') return { ...s, tiles };
          const entry: LogEntry = {
            kind: 'transition',
            key: e.cursor,
            cursor: e.cursor,
            at: e.at,
            instanceId: e.instance.id,
            cluster: e.instance.cluster.name,
            state: e.state,
            previousState: e.previousState,
            revisionId: e.revisionId,
            targetRevisionId: next.targetRevisionId,
            message: e.message,
          };
          return { ...s, tiles, log: push(s.log, entry) };
        }
      }
      return s;
    }
    case 'ended':
      return {
        ...s,
        connection: { status: 'ended', reason: a.reason },
        log: warn(s.log, `live updates stopped: ${a.reason}`),
      };
  }
}
