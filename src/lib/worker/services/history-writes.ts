// The history index's write path: entries read by the lanes wait here and go to the
// IndexedDB store in batches, one transaction after another, so the lanes never wait on a write.
// A failed write (a full disk, a blocked store) marks the index partial and keeps the rest in the
// service's memory: a full disk does not empty while the page is open, so no further write is tried.
import type { HistoryStore } from '../../store/history-index.ts';
import type { BilledCall, HistoryEntry, SessionDigest } from '../../view/history/types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;

const WRITE_BATCH = 24; // entries written per store transaction

export class HistoryWrites {
  #db: () => Promise<Store | null>;
  /** A batch went to the store: its entries' stored sizes and the bytes written. */
  #onStored: (keys: string[], sizes: Map<string, number>, bytes: number) => void;
  #pending: { entry: HistoryEntry; sig: string; lastMs: number }[] = [];
  #writing: Promise<void> = Promise.resolve();
  partial = false;
  notice: string | null = null;

  constructor(db: () => Promise<Store | null>, onStored: (keys: string[], sizes: Map<string, number>, bytes: number) => void) {
    this.#db = db;
    this.#onStored = onStored;
  }

  /** Queues an entry; a full batch goes to the store. `current` says whether its load is still the one indexed. */
  add(entry: HistoryEntry, sig: string, current: () => boolean): void {
    const d = entry.digest;
    this.#pending.push({ entry, sig, lastMs: d.endedAt ?? d.startedAt ?? 0 });
    if (this.#pending.length >= WRITE_BATCH) this.flush(current);
  }

  /** Drops what is pending (a new load replaces the work). */
  reset(): void {
    this.#pending = [];
  }

  /** Every write queued so far has ended. */
  settled(): Promise<void> {
    return this.#writing;
  }

  /** Writes what is pending after the writes before it; a failed write keeps it in memory. */
  flush(current: () => boolean): void {
    const batch = this.#pending;
    this.#pending = [];
    if (!batch.length) return;
    this.#writing = this.#writing.then(async () => {
      if (this.partial) return;
      const store = await this.#db();
      const out = store ? await store.put(batch) : null;
      if (!current()) return;
      if (out?.ok) {
        this.#onStored(batch.map((b) => b.entry.key), out.sizes, out.bytes);
        return;
      }
      this.partial = true;
      const why = out && !out.ok && out.quota ? 'the browser has no room left for it' : `it could not be stored (${out && !out.ok ? out.message : 'no storage'})`;
      this.notice = `History index: ${why}; its figures are partial (kept until the page is closed).`;
    });
  }
}
