import { StrictMode, useCallback, useMemo, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { FunctionsDocument, NvcfError } from '@nvcf/client';
import { readPageConfig, type PageConfig } from '../page-config.js';
import { FunctionPage, FunctionsPage } from './pages.js';
import { SpecPage } from './rollout.js';
import { NewTaskPage } from './task-create.js';
import { TaskPage, TasksPage } from './tasks.js';
import { BASE, href, navigate, useRoute } from './router.js';
import { clearToken, clientFor, saveToken, savedToken, tenantOf } from './session.js';
import { Link, SessionContext, errorText, useTitle, type Session } from './ui.js';
import './console.css';

const config = readPageConfig();

function App() {
  const [token, setToken] = useState(savedToken);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = useCallback((reason?: string) => {
    clearToken();
    setToken(null);
    setNotice(reason ?? null);
  }, []);
  const session = useMemo<Session | null>(
    () =>
      token
        ? {
            client: clientFor(config, token),
            config,
            expired: (r) => signOut(`Signed out: the gateway refused the token (${r}).`),
          }
        : null,
    [token, signOut],
  );
  if (!session || !token)
    return (
      <SignIn
        config={config}
        notice={notice}
        onSignedIn={(t) => {
          saveToken(t);
          setNotice(null);
          setToken(t);
        }}
      />
    );
  return (
    <SessionContext.Provider value={session}>
      <Shell
        tenant={tenantOf(config, token)}
        onSignOut={() => {
          signOut('Signed out.');
          navigate(BASE);
        }}
      />
    </SessionContext.Provider>
  );
}

function Shell({ tenant, onSignOut }: { tenant: string | undefined; onSignOut: () => void }) {
  const route = useRoute();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to={href.functions()} className="brand">
          NVCF console
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link to={href.functions()}>Functions</Link>
            </li>
            <li>
              <Link to={href.tasks()}>Tasks</Link>
            </li>
            {config.pages.ide ? (
              <li>
                <a href={config.graphqlPath}>GraphQL IDE</a>
              </li>
            ) : null}
          </ul>
        </nav>
        <span className="who">
          {tenant ? (
            <>
              Tenant <strong>{tenant}</strong>
            </>
          ) : (
            'Signed in'
          )}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.name === 'functions' ? (
          <FunctionsPage />
        ) : route.name === 'function' ? (
          <FunctionPage key={route.id} id={route.id} />
        ) : route.name === 'spec' ? (
          <SpecPage key={route.id} id={route.id} />
        ) : route.name === 'tasks' ? (
          <TasksPage />
        ) : route.name === 'task-new' ? (
          <NewTaskPage />
        ) : route.name === 'task' ? (
          <TaskPage key={route.id} id={route.id} />
        ) : (
          <>
            <h1>Not found</h1>
            <p>
              No page at <code>{route.path}</code>. <Link to={href.functions()}>Functions</Link>
            </p>
          </>
        )}
      </main>
    </>
  );
}

function SignIn({
  config,
  notice,
  onSignedIn,
}: {
  config: PageConfig;
  notice: string | null;
  onSignedIn: (token: string) => void;
}) {
  useTitle('Sign in');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tryToken = async (t: string) => {
    if (!t.trim()) {
      setError('Enter a token.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await clientFor(config, t.trim()).query(FunctionsDocument);
      onSignedIn(t.trim());
    } catch (e) {
      setError(
        e instanceof NvcfError && e.code === 'UNAUTHENTICATED'
          ? `The gateway refused this token (${e.code}).`
          : errorText(e),
      );
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void tryToken(token);
  };
  return (
    <main id="main" className="signin">
      <h1>NVCF console</h1>
      <h2>Sign in</h2>
      {notice ? <p role="status">{notice}</p> : null}
      <form onSubmit={submit} noValidate>
        <label htmlFor="token" className="field-label">
          Bearer token
        </label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby="token-help"
          aria-invalid={error ? true : undefined}
        />
        <p id="token-help" className="muted">
          {config.authMode === 'jwt' ? 'A JWT from your identity provider.' : "One of the gateway's AUTH_TOKENS."} It is
          kept for this tab only (session storage).
        </p>
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {config.devTokens.length ? (
        <section aria-labelledby="dev-h" className="dev-tokens">
          <h3 id="dev-h">Development tokens</h3>
          <p className="muted">This gateway runs with the published development tokens.</p>
          <ul>
            {config.devTokens.map((t) => (
              <li key={t.token}>
                <button type="button" disabled={busy} onClick={() => void tryToken(t.token)}>
                  Sign in as {t.tenant} <span className="muted">({t.token})</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {config.pages.ide ? (
        <p>
          <a href={config.graphqlPath}>GraphQL IDE</a>
        </p>
      ) : null}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
