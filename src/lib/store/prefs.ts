// Small per-browser preferences in localStorage (theme, which chat rows the person opened).
// Every call tolerates storage being full, disabled or holding junk: a preference that cannot be
// read is simply absent, one that cannot be written holds for this page view only.

export function readPref<T>(key: string, isValid: (v: unknown) => v is T): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return undefined;
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function writePref(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the choice still holds for this page view.
  }
}
