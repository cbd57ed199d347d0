// The lanes a big drop's first scan reads its small transcripts on, whole (up to WHOLE_MAX:
// view/history/file-pass.ts; one read gives the scan its head and tail and the usage pass the
// file's billed calls). Search workers, as the history lanes are, started for one scan and
// closed after it. A lane reads a few files at once (the browser's reads overlap: 2 lanes × 4
// read a 1 GB tree in 7.8 s, 2 × 1 in 9.2 s, 2 × 8 in 8.8 s).
// Where no worker can start (Node, tests), the files are read whole on this thread.
import { scanWhole, type WholeScan } from '../view/history/file-pass.ts';
import type { InputFile } from '../ingest/types.ts';
import { canStartLanes, poolSize, startSearchWorker } from './search-pool.ts';

export interface ScanLanes {
  /** The file scanned from its whole bytes, or null: no lane could (scan it here). */
  scanWhole(file: InputFile, path: string): Promise<WholeScan | null>;
  dispose(): void;
}

/** Files a lane reads at once (each at most WHOLE_MAX: a lane holds a megabyte). */
const LANE_FILES = 4;

/** One lane's reads in flight, and who waits for room. */
class Room {
  files = 0;
  #waiting: (() => void)[] = [];

  async take(): Promise<void> {
    while (this.files >= LANE_FILES) await new Promise<void>((r) => this.#waiting.push(r));
    this.files++;
  }

  give(): void {
    this.files--;
    this.#waiting.shift()?.();
  }
}

export function startScanLanes(): ScanLanes {
  if (!canStartLanes()) return { scanWhole: (file, path) => scanWhole(file, path), dispose: () => undefined };
  const n = poolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
  const lanes = Array.from({ length: n }, () => ({ worker: startSearchWorker('scan worker'), room: new Room(), dead: false }));
  return {
    async scanWhole(file, path) {
      const live = lanes.filter((l) => !l.dead);
      if (!live.length) return null;
      const lane = live.reduce((a, b) => (b.room.files < a.room.files ? b : a));
      await lane.room.take();
      try {
        return await lane.worker.guarded(() => lane.worker.api.scanWhole(file, path) as Promise<WholeScan>);
      } catch {
        lane.dead = true; // its worker failed: the others (or this thread's head-and-tail scan) take the rest
        return null;
      } finally {
        lane.room.give();
      }
    },
    dispose: () => lanes.forEach((l) => l.worker.dispose())
  };
}
