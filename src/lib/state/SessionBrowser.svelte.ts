// The session list's choices for a big drop: the project in view (null: all projects), the sort,
// the title filter and the date range. `visible` is what the list draws; the sorting and filtering
// themselves are pure (view/sessions/list.ts).
import { filterEntries, sortEntries, type ListEntry, type SortKey } from '../view/sessions/list.ts';

const DAY = 86_400_000;

/** 'YYYY-MM-DD' from a date input, as local midnight (epoch ms), or null when empty / invalid. */
export function dayStart(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime() : null;
}

export class SessionBrowser {
  project = $state<string | null>(null);
  sort = $state<SortKey>('newest');
  text = $state('');
  /** Date inputs' values ('YYYY-MM-DD' or ''). */
  from = $state('');
  to = $state('');

  #entries: () => ListEntry[];

  constructor(entries: () => ListEntry[]) {
    this.#entries = entries;
  }

  visible = $derived.by(() => {
    const to = dayStart(this.to);
    const filtered = filterEntries(this.#entries(), {
      text: this.text,
      from: dayStart(this.from),
      to: to === null ? null : to + DAY - 1,
      project: this.project
    });
    return sortEntries(filtered, this.sort);
  });

  /** Back to every session of every project, newest first. */
  reset(): void {
    this.project = null;
    this.text = '';
    this.from = '';
    this.to = '';
    this.sort = 'newest';
  }
}
