// The open chat's row index, fetched from the engine in pages. A message is read (its objects
// built) in the task that receives it, and the 100 MB session's whole index (5,919 entries,
// 1.5 MB) was one 29–64 ms task just before ready on a 2-vCPU machine. A page of
// INDEX_PAGE entries arrives as a message of its own, so each is read in its own task. The pages
// are asked for together once the first one says how many there are; if the session's rows were
// rebuilt in between (a followed session, a restored one whose model is rebuilt), the stamps
// disagree and the index is asked for again, whole.
import type { ChatIndex } from '../worker/protocol.ts';

/** Entries per page: about 260 KB, read in well under 10 ms here. */
export const INDEX_PAGE = 1_000;

export type IndexApi = { chatIndex(key: string, from?: number, to?: number): Promise<ChatIndex | null> };

/** The whole row index of session `key` (null when the engine has no such session). */
export async function fetchChatIndex(api: IndexApi, key: string, page = INDEX_PAGE): Promise<ChatIndex | null> {
  const first = await api.chatIndex(key, 0, page);
  if (!first || first.rows.length >= first.total) return first;
  const asked: Promise<ChatIndex | null>[] = [];
  for (let from = page; from < first.total; from += page) asked.push(api.chatIndex(key, from, from + page));
  const rest = await Promise.all(asked);
  if (rest.some((p) => p?.stamp !== first.stamp)) return api.chatIndex(key);
  return { ...first, rows: first.rows.concat(...rest.map((p) => p!.rows)) };
}
