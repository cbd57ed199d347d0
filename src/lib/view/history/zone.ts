// Calendar keys of an instant in an IANA time zone (day, ISO week, month), fast enough for a
// report over hundreds of thousands of calls: Intl is asked twice per UTC day of the calls, and
// per quarter hour on a day the offset changes (every zone's offset is a multiple of 15 minutes
// and changes on one); the rest is arithmetic.
// One Zone per time zone name is cached.

const QUARTER = 15 * 60 * 1000;
const DAY = 86400000;

export interface Zone {
  readonly name: string;
  /** `YYYY-MM-DD` of the instant in the zone. */
  day(ms: number): string;
  /** ISO 8601 week `YYYY-Www` of the instant's day in the zone. */
  week(ms: number): string;
  /** `YYYY-MM` of the instant in the zone. */
  month(ms: number): string;
}

const zones = new Map<string, Zone>();

/** True when `name` is a time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The browser's (or Node's) own time zone. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** The zone named `name` (UTC for a name the runtime does not know: the caller checks first). */
export function zone(name = 'UTC'): Zone {
  let z = zones.get(name);
  if (!z) zones.set(name, (z = makeZone(isTimeZone(name) ? name : 'UTC')));
  return z;
}

function makeZone(name: string): Zone {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
  const utc = name === 'UTC' || name === 'Etc/UTC';
  const at = (instant: number): number => {
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(instant)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - instant;
  };
  // Per UTC day: the offset when it holds all day (Intl asked twice), else NaN and per quarter
  // hour (a day with a transition).
  const days = new Map<number, number>();
  const quarters = new Map<number, number>();
  /** ms to add to an instant to read its wall clock in the zone with UTC getters. */
  const offset = (ms: number): number => {
    if (utc) return 0;
    const d = Math.floor(ms / DAY);
    let o = days.get(d);
    if (o === undefined) {
      const first = at(d * DAY);
      o = first === at(d * DAY + DAY - QUARTER) ? first : NaN;
      days.set(d, o);
    }
    if (o === o) return o;
    const q = Math.floor(ms / QUARTER);
    let oq = quarters.get(q);
    if (oq === undefined) quarters.set(q, (oq = at(q * QUARTER)));
    return oq;
  };
  // Keys by local day number (days since the epoch), so each day is written once.
  const dayKeys = new Map<number, string>();
  const weekKeys = new Map<number, string>();
  const localDay = (ms: number) => Math.floor((ms + offset(ms)) / DAY);
  const dayKey = (d: number): string => {
    let k = dayKeys.get(d);
    if (k === undefined) dayKeys.set(d, (k = new Date(d * DAY).toISOString().slice(0, 10)));
    return k;
  };
  return {
    name,
    day: (ms) => dayKey(localDay(ms)),
    month: (ms) => dayKey(localDay(ms)).slice(0, 7),
    week(ms) {
      const d = localDay(ms);
      let k = weekKeys.get(d);
      if (k === undefined) weekKeys.set(d, (k = isoWeek(d)));
      return k;
    }
  };
}

/** ISO week of a day number: the week (Monday first) belongs to the year holding its Thursday. */
export function isoWeek(dayNumber: number): string {
  const weekday = (new Date(dayNumber * DAY).getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date((dayNumber - weekday + 3) * DAY);
  const year = thursday.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1) / DAY;
  const week = Math.floor((thursday.getTime() / DAY - jan1) / 7) + 1;
  return `${year}-W${pad2(week)}`;
}
