import { useEffect, useState, type MouseEvent } from 'react';

/** The console's routes, under /console/ (the gateway serves the page for every path without a dot). */
export type Route =
  | { name: 'functions' }
  | { name: 'function'; id: string }
  | { name: 'spec'; id: string }
  | { name: 'tasks' }
  | { name: 'task-new' }
  | { name: 'task'; id: string }
  | { name: 'not-found'; path: string };

export const BASE = '/console/';

export const href = {
  functions: () => BASE,
  fn: (id: string) => `${BASE}functions/${encodeURIComponent(id)}`,
  spec: (id: string) => `${BASE}specs/${encodeURIComponent(id)}`,
  tasks: () => `${BASE}tasks`,
  newTask: () => `${BASE}tasks/new`,
  task: (id: string) => `${BASE}tasks/${encodeURIComponent(id)}`,
};

export function parseRoute(pathname: string): Route {
  const rel = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname.replace(/^\/console\/?/, '');
  const parts = rel
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'functions')) return { name: 'functions' };
  if (parts.length === 2 && parts[0] === 'functions') return { name: 'function', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'specs') return { name: 'spec', id: parts[1] };
  if (parts.length === 1 && parts[0] === 'tasks') return { name: 'tasks' };
  // task ids are UUIDs: `new` is never one
  if (parts.length === 2 && parts[0] === 'tasks')
    return parts[1] === 'new' ? { name: 'task-new' } : { name: 'task', id: parts[1] };
  return { name: 'not-found', path: pathname };
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

export function navigate(to: string): void {
  if (to === location.pathname) return;
  history.pushState(null, '', to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return route;
}

/** A plain link that navigates inside the page (a modified click still opens a new tab). */
export function onLinkClick(e: MouseEvent<HTMLAnchorElement>): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(e.currentTarget.pathname);
}
