import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { NvcfError, type NvcfClient } from '@nvcf/client';
import type { PageConfig } from '../page-config.js';
import { errorText } from './errors.js';
import type { Connection } from './live.js';
import { href, onLinkClick } from './router.js';

export interface Session {
  client: NvcfClient;
  config: PageConfig;
  /** the token was refused: back to the sign-in page with the reason */
  expired: (reason: string) => void;
}

export const SessionContext = createContext<Session | null>(null);
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export { errorText } from './errors.js';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

/** Runs `load` when `key` changes; `reload` runs it again (keeping the data shown meanwhile). */
export function useLoad<T>(key: string, load: (client: NvcfClient) => Promise<T>): Loaded<T> {
  const session = useSession();
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown; loading: boolean }>({
    key,
    loading: true,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  const seq = useRef(0);
  const run = useCallback(async () => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, key, loading: true }));
    try {
      const data = await loadRef.current(session.client);
      if (mine === seq.current) setState({ key, data, loading: false });
    } catch (error) {
      if (error instanceof NvcfError && error.code === 'UNAUTHENTICATED') return session.expired(errorText(error));
      if (mine === seq.current)
        setState((s) => ({ key, data: s.key === key ? s.data : undefined, error, loading: false }));
    }
  }, [key, session]);
  useEffect(() => {
    void run();
  }, [run]);
  return { data: state.key === key ? state.data : undefined, error: state.error, loading: state.loading, reload: run };
}

export function ErrorNote({ error, what }: { error: unknown; what: string }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      <strong>Could not {what}.</strong> {errorText(error)}
    </p>
  );
}

export const short = (id: string | null | undefined): string => (id ? id.slice(0, 8) : '—');

export function Id({ id }: { id: string | null | undefined }) {
  if (!id) return <span className="muted">—</span>;
  return (
    <code title={id} className="id">
      {short(id)}
    </code>
  );
}

export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—';

/** A status as text with its colour class: never colour alone. */
export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge s-${value.toLowerCase()}`}>{label ?? value}</span>;
}

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a href={to} onClick={onLinkClick} className={className}>
      {children}
    </a>
  );
}

interface Crumb {
  label: string;
  to?: string;
}

/** The trail from a list page (`root`, the functions by default) to the page shown. */
export function Breadcrumbs({
  items,
  root = { label: 'Functions', to: href.functions() },
}: {
  items: Crumb[];
  root?: Required<Crumb>;
}) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        <li>
          <Link to={root.to}>{root.label}</Link>
        </li>
        {items.map((i, n) => (
          <li key={n}>{i.to ? <Link to={i.to}>{i.label}</Link> : <span aria-current="page">{i.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · NVCF console`;
  }, [title]);
}

/**
 * What a live view's watch is doing, in a live region: the same badge on every page that follows
 * something. `done` replaces it once there is nothing left to follow (a task that ended).
 */
export function ConnectionStatus({
  connection,
  id = 'connection',
  done,
}: {
  connection: Connection;
  id?: string;
  done?: string;
}) {
  const [text, cls] = ((): [string, string] => {
    if (done) return [done, 'conn-off'];
    switch (connection.status) {
      case 'connecting':
        return ['Connecting…', 'conn-wait'];
      case 'live':
        return ['Live', 'conn-live'];
      case 'reconnecting':
        return [`Reconnecting… (attempt ${connection.attempt})`, 'conn-wait'];
      case 'ended':
        return ['Live updates stopped', 'conn-down'];
    }
  })();
  return (
    <p
      id={id}
      role="status"
      aria-live="polite"
      className={`conn ${cls}`}
      title={
        !done && (connection.status === 'reconnecting' || connection.status === 'ended') ? connection.reason : undefined
      }
    >
      <span className="dot" aria-hidden="true" />
      {text}
    </p>
  );
}
