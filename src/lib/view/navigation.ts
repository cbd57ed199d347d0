// Keyboard and scroll helpers over the chat's row index: the row that starts the next or
// previous turn (j / k), and the timeline bar that covers a moment (scroll-spy highlight).
import type { RowIndexEntry } from './chat/index.ts';
import type { TimelineBar } from './timeline/layout.ts';

/** Index of the first row of the turn after (dir 1) or before (dir -1) the row at `from`. */
export function turnStep(rows: readonly Pick<RowIndexEntry, 'turnIndex'>[], from: number, dir: 1 | -1): number {
  if (!rows.length) return -1;
  const at = Math.min(Math.max(from, 0), rows.length - 1);
  const turn = rows[at].turnIndex;
  if (dir === 1) {
    for (let i = at + 1; i < rows.length; i++) if (rows[i].turnIndex !== turn) return i;
    return at;
  }
  // Back: to the start of this turn if we are inside it, else to the start of the previous one.
  let i = at;
  while (i > 0 && rows[i - 1].turnIndex === turn) i--;
  if (i < at) return i;
  if (i === 0) return 0;
  const prev = rows[i - 1].turnIndex;
  while (i > 0 && rows[i - 1].turnIndex === prev) i--;
  return i;
}

/** The bar of a lane whose span holds time `ms` (the last one starting before it), or null. */
export function barAt(bars: readonly TimelineBar[], laneKey: string, ms: number | null): TimelineBar | null {
  if (ms === null) return null;
  let best: TimelineBar | null = null;
  for (const b of bars) {
    if (b.laneKey !== laneKey || b.t0 > ms) continue;
    if (!best || b.t0 >= best.t0) best = b;
  }
  return best;
}
