import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  CancelTaskDocument,
  NvcfError,
  TASK_STATUSES,
  TaskDocument,
  TasksDocument,
  taskEnded,
  type TaskStatus,
} from '@nvcf/client';
import { ConfirmDialog } from './controls.js';
import { href } from './router.js';
import { connecting, connectionAfter, runWatch, type Connection } from './live.js';
import { followTask, mergeTask, type TaskDetail } from './task-live.js';
import {
  Badge,
  Breadcrumbs,
  ConnectionStatus,
  ErrorNote,
  Id,
  Link,
  errorText,
  useLoad,
  useSession,
  useTitle,
  when,
} from './ui.js';

/** The API's default page, and what the console asks for. */
const PAGE_SIZE = 20;

export const tasksCrumb = { label: 'Tasks', to: href.tasks() };

/**
 * The tenant's tasks, newest first, a page at a time. The API pages forwards only (`after` a
 * cursor), so going back means asking again from the cursor the earlier page started after.
 */
export function TasksPage() {
  useTitle('Tasks');
  const [status, setStatus] = useState<TaskStatus | ''>('');
  // the `after` of every page shown so far: the last one is this page's
  const [starts, setStarts] = useState<(string | undefined)[]>([undefined]);
  const after = starts[starts.length - 1];
  const tasks = useLoad(`tasks:${status}:${after ?? ''}`, (c) =>
    c.query(TasksDocument, { first: PAGE_SIZE, ...(status ? { status } : {}), ...(after ? { after } : {}) }),
  );
  const page = tasks.data?.tasks;
  const list = page?.edges.map((e) => e.node) ?? [];
  const pageNo = starts.length;
  return (
    <>
      <div className="title-row">
        <h1>Tasks</h1>
        <Link to={href.newTask()} className="button primary">
          New task
        </Link>
      </div>
      <div className="toolbar">
        <label htmlFor="task-status">Status</label>
        <select
          id="task-status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as TaskStatus | '');
            setStarts([undefined]);
          }}
        >
          <option value="">any</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void tasks.reload()} disabled={tasks.loading}>
          Refresh
        </button>
      </div>
      <ErrorNote error={tasks.error} what="load the tasks" />
      {tasks.loading && !page ? <p aria-live="polite">Loading tasks…</p> : null}
      {page && list.length === 0 ? (
        <p>{status ? `No ${status} tasks on this page.` : 'No tasks yet for this tenant.'}</p>
      ) : null}
      {list.length > 0 ? (
        <table className="grid tasks">
          <caption className="visually-hidden">Tasks of this tenant, newest first, page {pageNo}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Ended</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <tr key={t.id} data-task={t.id} data-status={t.status}>
                <th scope="row">
                  <Link to={href.task(t.id)}>{t.name}</Link>
                </th>
                <td>
                  <Id id={t.id} />
                </td>
                <td>
                  <Badge value={t.status} />
                </td>
                <td>{when(t.createdAt)}</td>
                <td>{when(t.endedAt)}</td>
                <td className="message">{t.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {page && (pageNo > 1 || page.pageInfo.hasNextPage) ? (
        <nav aria-label="Pages of tasks" className="pager">
          <button type="button" disabled={pageNo === 1} onClick={() => setStarts((s) => s.slice(0, -1))}>
            Newer
          </button>
          <span>Page {pageNo}</span>
          <button
            type="button"
            disabled={!page.pageInfo.hasNextPage || !page.pageInfo.endCursor}
            onClick={() => setStarts((s) => [...s, page.pageInfo.endCursor ?? undefined])}
          >
            Older
          </button>
        </nav>
      ) : null}
    </>
  );
}

/**
 * One task: its facts, its transitions, and Cancel while it has not ended. It is read once and
 * then kept current by its status subscription (followTask) until it ends or the view closes.
 */
export function TaskPage({ id }: { id: string }) {
  const { client, expired } = useSession();
  const [task, setTask] = useState<TaskDetail | null | undefined>(undefined);
  const [readError, setReadError] = useState<unknown>(null);
  const [connection, setConnection] = useState<Connection>(connecting);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [cancelError, setCancelError] = useState<NvcfError | Error | null>(null);
  // a cancel's answer and the stream may tell the same end in either order: keep whichever is further along
  const show = useCallback(
    (next: TaskDetail | null) =>
      setTask((prev) => (prev && next && prev.id === next.id ? mergeTask(prev, next) : next)),
    [],
  );

  useEffect(() => {
    const stop = new AbortController();
    setConnection(connecting);
    void runWatch(followTask(client, id, { signal: stop.signal }), {
      signal: stop.signal,
      expired,
      onItem: (u) => {
        if (u.type === 'error') {
          if (u.error instanceof NvcfError && u.error.code === 'UNAUTHENTICATED') return expired(errorText(u.error));
          return setReadError(u.error);
        }
        if (u.type === 'connection') return setConnection((c) => connectionAfter(c, u.item));
        setReadError(null);
        show(u.task);
      },
      onEnd: (reason) => {
        if (reason) setConnection({ status: 'ended', reason });
      },
    });
    return () => stop.abort();
  }, [client, id, expired, show]);

  const cancel = async () => {
    setConfirm(false);
    setBusy(true);
    setCancelError(null);
    try {
      show((await client.mutate(CancelTaskDocument, { id })).cancelTask);
    } catch (e) {
      if (e instanceof NvcfError && e.code === 'UNAUTHENTICATED') return expired(errorText(e));
      setCancelError(e instanceof Error ? e : new Error(String(e)));
      // it ended meanwhile (TASK_ENDED): show how now, whatever the subscription has told so far
      if (e instanceof NvcfError && e.code === 'TASK_ENDED')
        client.query(TaskDocument, { id }).then(
          (r) => show(r.task),
          () => undefined,
        );
    } finally {
      setBusy(false);
    }
  };

  useTitle(task?.name ?? 'Task');
  const ended = task ? taskEnded(task.status) : false;
  return (
    <>
      <Breadcrumbs root={tasksCrumb} items={[{ label: task?.name ?? id }]} />
      <div className="title-row">
        <h1>
          {task ? (
            <>
              {task.name} <Badge value={task.status} />
            </>
          ) : (
            'Task'
          )}
        </h1>
        {task ? (
          // says whether the task is still followed, not its status (the badge is that)
          <ConnectionStatus
            connection={connection}
            id="task-live"
            done={ended ? 'Ended: no more updates' : undefined}
          />
        ) : null}
      </div>
      <ErrorNote
        error={readError}
        what={task ? 'refresh the task (showing the last known state)' : 'load the task (trying again)'}
      />
      {task && !ended && connection.status === 'ended' ? (
        <p className="error" role="alert" id="task-live-ended">
          <strong>Live updates stopped.</strong> {connection.reason}. Reload the page to follow the task again.
        </p>
      ) : null}
      {task === undefined && !readError ? <p aria-live="polite">Loading…</p> : null}
      {task === null ? (
        <p role="alert">
          No task <code>{id}</code> for this tenant.
        </p>
      ) : null}
      {task ? (
        <>
          <section className="panel" aria-labelledby="task-h">
            <h2 id="task-h">Task</h2>
            <TaskFacts task={task} />
            {task.message ? (
              // a workload's failure is an error; a cancel or a completion's note is not
              <p
                className={task.status === 'COMPLETED' || task.status === 'CANCELED' ? 'task-message' : 'error'}
                id="task-message"
              >
                <strong>Message:</strong> {task.message}
              </p>
            ) : null}
            <div className="actions">
              <button
                type="button"
                disabled={ended}
                aria-busy={busy}
                onClick={() => {
                  if (!busy) setConfirm(true);
                }}
                title={ended ? `the task has ended (${task.status}): there is nothing to cancel` : undefined}
              >
                Cancel task…
              </button>
            </div>
            {cancelError ? (
              <p className="error" role="alert" id="cancel-error">
                {cancelError instanceof NvcfError && cancelError.code === 'TASK_ENDED' ? (
                  <>
                    <strong>The task had already ended, so there was nothing to cancel.</strong>{' '}
                  </>
                ) : (
                  <strong>Could not cancel the task. </strong>
                )}
                {errorText(cancelError)}
              </p>
            ) : null}
          </section>
          <TaskEvents task={task} />
          <ConfirmDialog
            open={confirm}
            title="Cancel this task?"
            confirmLabel="Cancel task"
            dismissLabel="Keep it"
            onConfirm={() => void cancel()}
            onCancel={() => setConfirm(false)}
          >
            <p>
              <strong>{task.name}</strong> ({task.status}) ends <code>CANCELED</code>; a running workload gets{' '}
              {task.terminationGracePeriodDuration} to exit. A canceled task cannot be resumed: submit a new one.
            </p>
          </ConfirmDialog>
        </>
      ) : null}
    </>
  );
}

function TaskFacts({ task }: { task: TaskDetail }) {
  const facts: [string, ReactNode][] = [
    ['Task', <code key="id">{task.id}</code>],
    ['Workload', task.workloadType],
    [
      'GPU',
      <>
        {task.gpu} <code>{task.instanceType}</code>
      </>,
    ],
    ['Created', when(task.createdAt)],
    ['Ended', when(task.endedAt)],
    ['Max queued', task.maxQueuedDuration],
    ['Max runtime', task.maxRuntimeDuration],
    ['Termination grace', task.terminationGracePeriodDuration],
  ];
  return (
    <dl className="facts">
      {facts.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function TaskEvents({ task }: { task: TaskDetail }) {
  return (
    <section className="panel" aria-labelledby="events-h">
      <h2 id="events-h">
        Events <span className="muted">(oldest first)</span>
      </h2>
      {task.events.length === 0 ? <p className="muted">No transitions yet.</p> : null}
      {task.events.length ? (
        <table className="grid task-events">
          <caption className="visually-hidden">Transitions of the task, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {task.events.map((e) => (
              // a task passes each status once; a transition's cursor depends on who told it (a read, the stream)
              <tr key={e.status} data-status={e.status}>
                <td>
                  <time dateTime={e.at}>{when(e.at)}</time>
                </td>
                <td>
                  <Badge value={e.status} />
                </td>
                <td className="message">{e.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
