// Counts as the page shows them while a big drop loads, without Intl: the first
// Number#toLocaleString of a page builds ICU's number format (about 40 ms here, in whatever task
// asks first), and the first screens of a drop (progress, session list, projects) would pay it.

/** 1234567 → '1,234,567' (the grouping en-US uses; other locales read it unambiguously). */
export function groupDigits(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const [int, frac] = String(Math.abs(n)).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}

const pad = (x: number) => String(x).padStart(2, '0');

/** Local 'YYYY-MM-DD HH:MM' (or the date alone), without Intl's date formats (same reason). */
export function plainDate(ms: number | null, withTime = true): string {
  if (!ms) return '—';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '—';
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return withTime ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}` : day;
}

/** Local 'HH:MM' (24-hour), 'HH:MM:SS' with seconds, 'YYYY-MM-DD HH:MM:SS' with the date too;
 *  '' for a missing or invalid time. Without Intl: the first Intl date format of a page
 *  initialises ICU (150–250 ms at 4× CPU, measured), which the chat's first rows, each with its
 *  time, would otherwise pay. */
export function plainClock(ms: number | null, seconds = false, date = false): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const day = date ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` : '';
  return `${day}${pad(d.getHours())}:${pad(d.getMinutes())}${seconds || date ? `:${pad(d.getSeconds())}` : ''}`;
}
