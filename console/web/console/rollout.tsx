import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { GpuSpecificationDocument, NvcfError } from '@nvcf/client';
import { href } from './router.js';
import { runWatch } from './live.js';
import { initialRollout, rolloutReducer, type LogEntry, type Spec, type Tile } from './rollout-model.js';
import { Badge, Breadcrumbs, ConnectionStatus, ErrorNote, Id, errorText, useSession, useTitle, when } from './ui.js';
import { UpdatePanel } from './update.js';

type Revision = NonNullable<Spec['latestRevision']>;

/** The wall clock, once a second. */
function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/**
 * The rollout view of one GPU specification: its instances as tiles, the latest revision's
 * progress and deadline, and the event log, kept live by the status watch (which resumes from
 * its cursor by itself); every event also re-reads the progress, the authoritative counts.
 */
export function SpecPage({ id }: { id: string }) {
  const { client, expired } = useSession();
  const [state, dispatch] = useReducer(rolloutReducer, initialRollout);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [missing, setMissing] = useState(false);
  const spec = state.spec;

  const refetch = useCallback(async () => {
    try {
      const r = await client.query(GpuSpecificationDocument, { id });
      if (!r.gpuSpecification) {
        setMissing(true);
        return;
      }
      dispatch({ type: 'spec', spec: r.gpuSpecification });
      setLoadError(null);
    } catch (e) {
      if (e instanceof NvcfError && e.code === 'UNAUTHENTICATED') return expired(errorText(e));
      setLoadError(e);
    }
  }, [client, id, expired]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refetchSoon = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void refetch(), 200);
  }, [refetch]);

  useEffect(() => {
    void refetch();
    const stop = new AbortController();
    void runWatch(
      client.watch(
        { gpuSpecificationId: id },
        { snapshot: true, signal: stop.signal, onExpired: 'snapshot', maxDelayMs: 5000 },
      ),
      {
        signal: stop.signal,
        expired,
        onItem: (item) => {
          dispatch({ type: 'watch', item });
          if (
            (item.type === 'event' && item.event.kind === 'TRANSITION') ||
            (item.type === 'connected' && item.attempt > 0) ||
            item.type === 'expired'
          )
            refetchSoon();
        },
        onEnd: (reason) => dispatch({ type: 'ended', reason: reason ?? 'the gateway ended the stream' }),
      },
    );
    return () => {
      stop.abort();
      clearTimeout(timer.current);
    };
  }, [client, id, refetch, refetchSoon, expired]);

  const latest = spec?.latestRevision ?? null;
  const inFlight = latest?.status === 'ROLLING_OUT' || latest?.status === 'PENDING';
  // a deadline can pass without any instance event: read the revision again now and then while it rolls out
  useEffect(() => {
    if (!inFlight) return;
    const t = setInterval(() => void refetch(), 10_000);
    return () => clearInterval(t);
  }, [inFlight, refetch]);

  const fnName = spec?.deployment.functionVersion.function.name;
  useTitle(spec ? `${fnName} ${spec.gpu} rollout` : 'Rollout');
  if (missing)
    return (
      <>
        <Breadcrumbs items={[{ label: id }]} />
        <h1>GPU specification</h1>
        <p role="alert">
          No GPU specification <code>{id}</code> for this tenant.
        </p>
      </>
    );
  return (
    <>
      <Breadcrumbs
        items={
          spec
            ? [
                { label: fnName!, to: href.fn(spec.deployment.functionVersion.function.id) },
                { label: `${spec.gpu} ${spec.instanceType}` },
              ]
            : [{ label: id }]
        }
      />
      <div className="title-row">
        <h1>
          {spec ? (
            <>
              {fnName} · {spec.gpu} <code>{spec.instanceType}</code>
            </>
          ) : (
            'GPU specification'
          )}
        </h1>
        <ConnectionStatus connection={state.connection} />
      </div>
      {spec ? (
        <p className="muted">
          GPU specification <code>{spec.id}</code> · version{' '}
          <code>{spec.deployment.functionVersion.id.slice(0, 8)}</code> · {spec.minInstances}–{spec.maxInstances}{' '}
          instances · clusters {spec.clusters.join(', ') || 'any'}
        </p>
      ) : null}
      <ErrorNote
        error={loadError}
        what={spec ? 'refresh the specification (showing the last known state)' : 'load the specification'}
      />
      {!spec && !loadError ? <p aria-live="polite">Loading…</p> : null}
      {spec ? (
        <div className="rollout-layout">
          <section className="panel" aria-labelledby="rollout-h">
            <h2 id="rollout-h">Rollout</h2>
            <Revisions latest={latest} applied={spec.lastAppliedRevision ?? null} />
            {latest ? <Progress revision={latest} /> : <p>No revision yet.</p>}
            <h3 id="tiles-h">
              Instances <span className="muted">({state.tiles.length})</span>
            </h3>
            {state.tiles.length === 0 ? <p className="muted">No instances.</p> : null}
            <ul className="tiles" aria-labelledby="tiles-h">
              {state.tiles.map((t) => (
                <InstanceTile key={t.id} tile={t} latestId={latest?.id ?? null} />
              ))}
            </ul>
          </section>
          <EventLog log={state.log} />
        </div>
      ) : null}
      {spec ? <UpdatePanel spec={spec} onChanged={refetch} /> : null}
    </>
  );
}

function Revisions({ latest, applied }: { latest: Revision | null; applied: Revision | null }) {
  return (
    <dl className="facts revisions">
      <div>
        <dt>Latest revision</dt>
        <dd>
          {latest ? (
            <>
              <Id id={latest.id} /> <Badge value={latest.status} />{' '}
              <span className="muted">created {when(latest.createdAt)}</span>
              {latest.supersedes ? (
                <span className="muted">
                  {' '}
                  · supersedes <Id id={latest.supersedes} />
                </span>
              ) : null}
            </>
          ) : (
            '—'
          )}
        </dd>
      </div>
      <div>
        <dt>Last applied revision</dt>
        <dd>
          {applied ? (
            <>
              <Id id={applied.id} /> <span className="muted">applied {when(applied.appliedAt)}</span>
            </>
          ) : (
            '—'
          )}
        </dd>
      </div>
    </dl>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

function Progress({ revision }: { revision: Revision }) {
  const now = useNow();
  const p = revision.progress;
  const pct = (n: number) => (p.total > 0 ? (n / p.total) * 100 : 0);
  const percent = Math.round(pct(p.applied));
  const deadline = p.deadline ?? revision.deadline;
  const inFlight = revision.status === 'ROLLING_OUT' || revision.status === 'PENDING';
  let clock: string;
  if (inFlight && deadline) {
    const left = Date.parse(deadline) - now;
    clock = left > 0 ? `${duration(left)} left to the deadline` : 'the deadline has passed';
  } else if (revision.status === 'APPLIED') clock = `applied ${when(revision.appliedAt)}`;
  else if (revision.status === 'FAILED') clock = 'failed';
  else clock = revision.status.toLowerCase();
  return (
    <div className="progress-block">
      <div className="progress-head">
        <span id="progress-label">
          Progress of revision <Id id={revision.id} />
        </span>
        <span className="clock" id="time-left">
          {clock}
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-labelledby="progress-label"
        aria-valuemin={0}
        aria-valuemax={Math.max(p.total, 1)}
        aria-valuenow={p.applied}
        aria-valuetext={`${p.applied} of ${p.total} instances applied (${percent} %)`}
      >
        <div className="seg seg-applied" style={{ width: `${pct(p.applied)}%` }} />
        <div className="seg seg-updating" style={{ width: `${pct(p.updating)}%` }} />
        <div className="seg seg-failed" style={{ width: `${pct(p.failed)}%` }} />
      </div>
      <p className="progress-text" id="progress-text">
        <strong>
          {p.applied}/{p.total} applied ({percent} %)
        </strong>{' '}
        · {p.updating} updating · {p.failed} failed · {p.pending} pending
      </p>
      {revision.status === 'FAILED' ? (
        <p className="error" role="alert">
          <strong>Rollout failed.</strong> {revision.failureReason ?? 'no reason given'}
        </p>
      ) : null}
    </div>
  );
}

const ICON: Record<string, string> = { ACTIVE: '●', UPDATING: '◐', STARTING: '○', FAILED: '✕', TERMINATED: '–' };

function InstanceTile({ tile, latestId }: { tile: Tile; latestId: string | null }) {
  const moving = tile.state === 'UPDATING' && tile.targetRevisionId;
  const onLatest = tile.revisionId !== null && tile.revisionId === latestId;
  return (
    <li
      className={`tile s-${tile.state.toLowerCase()}`}
      data-instance={tile.id}
      data-state={tile.state}
      aria-label={`Instance ${tile.id.slice(0, 8)}: ${tile.state}`}
    >
      <div className="tile-state">
        <span aria-hidden="true">{ICON[tile.state] ?? '?'}</span> {tile.state}
      </div>
      <div className="tile-row">
        <span className="k">Instance</span> <Id id={tile.id} />
      </div>
      <div className="tile-row">
        <span className="k">Cluster</span> {tile.cluster.name}
      </div>
      <div className="tile-row">
        <span className="k">Revision</span> <Id id={tile.revisionId} />
        {moving ? (
          <>
            {' '}
            <span aria-label="moving to">→</span> <Id id={tile.targetRevisionId} />
          </>
        ) : null}
        {onLatest && !moving ? <span className="muted"> (latest)</span> : null}
      </div>
      {tile.message ? <p className="tile-msg">{tile.message}</p> : null}
    </li>
  );
}

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

function EventLog({ log }: { log: LogEntry[] }) {
  return (
    <section className="panel log-panel" aria-labelledby="log-h">
      <h2 id="log-h">
        Event log <span className="muted">(newest first)</span>
      </h2>
      {log.length === 0 ? <p className="muted">No transitions since the page opened.</p> : null}
      <div className="log" role="log" aria-labelledby="log-h" tabIndex={0}>
        <ol>
          {log.map((e) =>
            e.kind === 'note' ? (
              <li key={e.key} className={`note note-${e.tone}`}>
                <time dateTime={e.at}>{time(e.at)}</time> {e.text}
              </li>
            ) : (
              <li
                key={e.key}
                className="entry"
                data-instance={e.instanceId}
                data-state={e.state}
                data-revision={e.revisionId ?? ''}
                data-target={e.targetRevisionId ?? ''}
                data-cursor={e.cursor}
              >
                <time dateTime={e.at}>{time(e.at)}</time> <Id id={e.instanceId} />{' '}
                <span className="muted">{e.cluster}</span> {e.previousState ? <>{e.previousState} → </> : null}
                <Badge value={e.state} /> <span className="muted">rev</span> <Id id={e.revisionId} />
                {e.targetRevisionId ? (
                  <>
                    {' '}
                    → <Id id={e.targetRevisionId} />
                  </>
                ) : null}
                {e.message ? <div className="entry-msg">{e.message}</div> : null}
              </li>
            ),
          )}
        </ol>
      </div>
    </section>
  );
}
