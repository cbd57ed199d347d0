// Handing a big drop's File handles to the worker, in short tasks. A File from a folder input
// has no size or date until something asks for them, and then Chromium asks the browser
// process, one synchronous round trip a file. postMessage asks for them while it serializes, so
// a 20-file message was a 34–52 ms task. Here each file's size is read first, one file at a time,
// in slices of a few ms, and the batches are posted without waiting for the worker's answers.

/** Files per message. */
export const STAGE_BATCH = 20;
/** The page yields to other tasks once a task has spent this long here (ms). */
export const STAGE_SLICE_MS = 10;

export interface StageHooks<T> {
  /** Reads what serializing the item would ask for (a File's size), so the post is cheap. */
  touch(item: T): void;
  /** Posts one batch (the answers are awaited at the end, all together). */
  post(batch: T[]): Promise<unknown>;
  /** False once the load is replaced: nothing more is posted. */
  current(): boolean;
  now?: () => number;
  /** Lets other tasks run (default: a macrotask). */
  yieldTask?: () => Promise<void>;
}

/** Resolves in a later task: what ran before it is a task of its own. */
export const macrotask = () => new Promise<void>((r) => setTimeout(r, 0));

/** Posts every item, touched first, in batches of STAGE_BATCH, in order; resolves once every
 *  post is answered: false when the load was replaced on the way. */
export async function stageInSlices<T>(items: readonly T[], hooks: StageHooks<T>): Promise<boolean> {
  const now = hooks.now ?? (() => performance.now());
  const yieldTask = hooks.yieldTask ?? macrotask;
  const answers: Promise<unknown>[] = [];
  let sliceStart = now();
  let batchStart = 0;
  for (let i = 0; i < items.length; i++) {
    if (now() - sliceStart >= STAGE_SLICE_MS) {
      await yieldTask();
      if (!hooks.current()) return false;
      sliceStart = now();
    }
    hooks.touch(items[i]);
    if (i + 1 - batchStart === STAGE_BATCH || i + 1 === items.length) {
      answers.push(hooks.post(items.slice(batchStart, i + 1)));
      batchStart = i + 1;
    }
  }
  await Promise.all(answers);
  return hooks.current();
}
