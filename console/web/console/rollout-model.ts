import type { GpuSpecificationQuery, InstanceState, StatusEvent, WatchItem } from '@nvcf/client';

export type Spec = NonNullable<GpuSpecificationQuery['gpuSpecification']>;

/** One instance as its tile shows it. */
export interface Tile {
  id: string;
  state: InstanceState;
  revisionId: string | null;
  targetRevisionId: string | null;
  cluster: { id: string; name: string };
  /** the message of its last event (a failure's reason) */
  message: string | null;
  /** when this state was reported (ms): a query's older answer does not overwrite an event's newer one */
  at: number;
}

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

export type Connection =
  | { status: 'connecting' }
  | { status: 'live' }
  | { status: 'reconnecting'; attempt: number; reason: string }
  | { status: 'ended'; reason: string };

export interface RolloutState {
  spec: Spec | null;
  tiles: Tile[];
  /** newest first */
  log: LogEntry[];
  connection: Connection;
  /** how many times the watch lost its connection */
}

export type RolloutAction =
  { type: 'spec'; spec: Spec } | { type: 'watch'; item: WatchItem } | { type: 'ended'; reason: string };

export const initialRollout: RolloutState = { spec: null, tiles: [], log: [], connection: { status: 'connecting' } };

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

function fromEvent(e: StatusEvent): Tile {
  return {
    id: e.instance.id,
    state: e.state,
    revisionId: e.revisionId,
    targetRevisionId: e.targetRevisionId,
    cluster: e.instance.cluster,
    message: e.message,
    at: Date.parse(e.at),
  };
}

export function rolloutReducer(s: RolloutState, a: RolloutAction): RolloutState {
  switch (a.type) {
    case 'spec': {
      const known = new Map(s.tiles.map((t) => [t.id, t]));
      const tiles: Tile[] = [];
      for (const i of a.spec.instances) {
        const at = Date.parse(i.updatedAt);
        const t = known.get(i.id);
        known.delete(i.id);
        if (t && t.at >= at) {
          tiles.push(t);
          continue;
        }
        tiles.push({
          id: i.id,
          state: i.state,
          revisionId: i.revisionId,
          targetRevisionId: i.targetRevisionId,
          cluster: i.cluster,
          message: t && t.state === i.state ? t.message : null,
          at,
        });
      }
      // an instance the query no longer lists but an event told about (terminated) stays until the page is left
      for (const t of known.values()) if (t.state === 'TERMINATED') tiles.push(t);
      return { ...s, spec: a.spec, tiles: tiles.sort(byId) };
    }
    case 'watch': {
      const item = a.item;
      switch (item.type) {
        case 'connected': {
          const resumed = item.attempt > 0 || s.connection.status === 'reconnecting';
          return {
            ...s,
            connection: { status: 'live' },
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
          const reason = `${item.error.code}: ${item.error.message}`;
          return {
            ...s,
            connection: { status: 'reconnecting', attempt: item.attempt, reason },
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
          const next = fromEvent(e);
          const idx = s.tiles.findIndex((t) => t.id === next.id);
          let tiles = s.tiles;
          if (idx < 0) tiles = [...s.tiles, next].sort(byId);
          else if (e.kind === 'TRANSITION' || next.at >= s.tiles[idx].at)
            tiles = s.tiles.map((t, i) => (i === idx ? next : t));
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
            targetRevisionId: e.targetRevisionId,
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
