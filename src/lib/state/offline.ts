// Offline support's start: registers the service worker (src/service-worker.ts, which precaches
// the app) once the page has drawn what it opened with and is idle. Its install fetches every
// chunk and the browser compiles the cached scripts; registered at the load event (SvelteKit's
// default), that ran beside a linked session's boot on a 2-core machine. A first visit
// still installs it, a few hundred ms later.
import { dev } from '$app/environment';
import { whenIdle } from './idle-work.ts';

export function registerOffline(base: string): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(`${base}/service-worker.js`, { type: dev ? 'module' : 'classic' }).catch(() => undefined);
  whenIdle(register, { timeout: 5000, fallback: 1000 });
}
