// The engine's search wiring: sessions reached through one accessor, a newer query cancels the
// older one, hits stream in batches, and an atom inside a subagent is found for landings.
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 9, 0, s)).toISOString();
function session(sid: string, words: string[]): Blob {
  let parent: string | null = null;
  const lines = words.flatMap((w, i) => {
    const u = { type: 'user', uuid: `${sid}-u${i}`, parentUuid: parent, sessionId: sid, timestamp: at(i * 4), promptSource: 'typed', message: { role: 'user', content: `please ${w}` } };
    const a = { type: 'assistant', uuid: `${sid}-a${i}`, parentUuid: u.uuid, sessionId: sid, timestamp: at(i * 4 + 1), message: { id: `m-${sid}-${i}`, role: 'assistant', content: [{ type: 'text', text: `did ${w}` }], stop_reason: 'end_turn' } };
    parent = a.uuid;
    return [u, a];
  });
  return new Blob([lines.map((l) => JSON.stringify(l)).join('\n') + '\n']);
}

async function loaded() {
  const engine = new Engine();
  const out = await engine.load(1, {
    files: [
      { path: 'p/one.jsonl', blob: session('one', ['alpha', 'beta', 'alpha gamma']) },
      { path: 'p/two.jsonl', blob: session('two', ['delta', 'alpha']) }
    ]
  });
  if (!out.ok) throw new Error(out.message);
  const key = (sid: string) => out.sessions.find((s) => s.key.includes(sid))!.key;
  return { engine, one: key('one'), two: key('two') };
}

describe('Engine search', () => {
  it('searches one session or all, streaming batches', async () => {
    const { engine, one, two } = await loaded();
    const batches: number[] = [];
    const r = await engine.search(1, { query: 'ALPHA' }, [one], (b) => batches.push(b.total));
    expect(r).toMatchObject({ ok: true, total: 4 });
    if (r.ok) expect(r.hits.map((h) => h.atomUuid)).toEqual(['one-u0', 'one-a0', 'one-u2', 'one-a2']);
    expect(batches.at(-1)).toBe(4);
    const all = await engine.search(2, { query: 'alpha', scope: { kinds: ['prompt'] } }, []);
    expect(all.ok && all.hits.map((h) => h.sessionKey)).toEqual([one, one, two]);
    expect(await engine.prepareSearch([one])).toMatchObject({ fields: 6 });
  });

  it('a newer query cancels the one in flight; cancelSearch stops it too', async () => {
    const { engine, one } = await loaded();
    const older = engine.search(1, { query: 'alpha' }, []);
    const newer = engine.search(2, { query: 'beta' }, []);
    expect(await older).toMatchObject({ ok: false, cancelled: true });
    expect(await newer).toMatchObject({ ok: true, total: 2 });
    const stopped = engine.search(3, { query: 'alpha' }, [one]);
    engine.cancelSearch(3);
    expect(await stopped).toMatchObject({ ok: false, cancelled: true });
  });

  it('searches cached sessions that are not loaded, parsing each once from the files it is given', async () => {
    const { engine, one } = await loaded();
    const asked: string[] = [];
    const getFiles = async (key: string) => {
      asked.push(key);
      return key === 'cached-three' ? [{ path: 'q/three.jsonl', blob: session('three', ['epsilon alpha']) }] : null;
    };
    const r = await engine.searchCached(1, { query: 'alpha' }, [one, 'cached-three', 'gone'], getFiles);
    expect(r.ok && r.hits.map((h) => h.sessionKey)).toEqual([one, one, one, one, 'cached-three', 'cached-three']);
    expect(asked).toEqual(['cached-three', 'gone']);
    const again = await engine.searchCached(2, { query: 'epsilon' }, ['cached-three'], getFiles);
    expect(again).toMatchObject({ ok: true, total: 2 });
    expect(asked).toEqual(['cached-three', 'gone']); // kept, not read again
  });

  it('on a big drop, finds hits in listed sessions that are not built, without building them', async () => {
    const engine = new Engine();
    // 30 sessions: more than a small drop, so the engine keeps a listing and builds on demand.
    const files = Array.from({ length: 30 }, (_, i) => ({ path: `p/s${i}.jsonl`, blob: session(`s${i}`, [i === 7 ? 'zebra' : 'plain', 'more']) }));
    const out = await engine.load(1, { files });
    if (!out.ok) throw new Error(out.message);
    expect(out.scanned).toBe(true);
    const builtBefore = engine.builtKeys();
    const r = await engine.search(2, { query: 'zebra' }, []);
    expect(r.ok && r.hits.map((h) => h.atomUuid)).toEqual(['s7-u0', 's7-a0']);
    // Searching parsed them for their text only: the built set (the LRU of opened sessions) is unchanged.
    expect(engine.builtKeys()).toEqual(builtBefore);
  });

  it('reports an invalid regex as a value', async () => {
    const { engine } = await loaded();
    expect(await engine.search(1, { query: '(', options: { regex: true } }, [])).toMatchObject({ ok: false, cancelled: false, error: expect.stringMatching(/^Invalid regular expression/) });
  });
});
