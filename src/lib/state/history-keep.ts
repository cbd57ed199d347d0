// Whether the history index should still be here. The browser may evict IndexedDB under storage
// pressure (best-effort storage); a small note in localStorage, which that eviction leaves alone,
// says an index was built, so an empty store then reads as "gone", not "never built". When the
// index is first built, persistent storage is asked for (navigator.storage.persist()), with one
// line saying why: rebuilding means dropping the whole tree again.
import { readPref, writePref } from '../store/prefs.ts';

const KEY = 'loupe.history.built';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Sessions the last built index held (0: none built, or cleared on purpose). */
export function builtBefore(): number {
  return readPref(KEY, isCount) ?? 0;
}

/** The index was built with this many sessions (0: cleared on purpose: not "gone"). */
export function noteBuilt(sessions: number): void {
  writePref(KEY, sessions > 0 ? sessions : undefined);
}

/** Asks for persistent storage once; the line to show, or null when the browser has no such request. */
export async function askPersist(storage: Pick<StorageManager, 'persist' | 'persisted'> | undefined = globalThis.navigator?.storage): Promise<string | null> {
  if (!storage?.persist) return null;
  try {
    if (await storage.persisted?.()) return null;
    const granted = await storage.persist();
    return granted
      ? 'Loupe asked the browser to keep the history index: it is not cleared when disk space runs low.'
      : 'The browser may clear the history index when disk space runs low (persistent storage was not granted); dropping the folder again rebuilds it.';
  } catch {
    return null;
  }
}
