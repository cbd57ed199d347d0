// The Viewer's load, as the page drives it, with the engine on this thread (no Worker in Node):
// what a big load starts beside its parse, and what a small one leaves alone; when a scanned
// drop's scans are stored.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ warm: 0, holds: 0, released: 0 }));
vi.mock('./markdown-client.ts', async (real) => ({ ...(await real<object>()), warmMarkdown: () => void calls.warm++ }));
vi.mock('./idle-work.ts', async (real) => {
  const mod = await real<typeof import('./idle-work.ts')>();
  return {
    ...mod,
    holdIdleWork: () => {
      calls.holds++;
      const release = mod.holdIdleWork();
      return () => {
        calls.released++;
        release();
      };
    }
  };
});
const { Viewer } = await import('./Viewer.svelte.ts');
const { idleWorkHeld, idleWorkHurried, idleWorkStarted } = await import('./idle-work.ts');

/** A session of `turns` turns, each answer `answerBytes` long. */
function session(turns: number, answerBytes: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  const answer = 'x'.repeat(answerBytes);
  for (let t = 1; t <= turns; t++) {
    const ts = new Date(Date.UTC(2026, 0, 1, 0, 0, t)).toISOString();
    lines.push(JSON.stringify({ type: 'user', uuid: `u${t}`, parentUuid: parent, sessionId: 's-big', timestamp: ts, message: { role: 'user', content: `question ${t}` } }));
    lines.push(JSON.stringify({ type: 'assistant', uuid: `a${t}`, parentUuid: `u${t}`, sessionId: 's-big', timestamp: ts, message: { role: 'assistant', content: [{ type: 'text', text: answer }] } }));
    parent = `a${t}`;
  }
  return lines.join('\n') + '\n';
}

afterEach(() => Object.assign(calls, { warm: 0, holds: 0, released: 0 }));

describe('Viewer.load', () => {
  it('for a session of 8 MB or more, starts the Markdown worker and holds idle work until the load is done', async () => {
    const viewer = new Viewer();
    const text = session(100, 90_000);
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    let heldDuringLoad = false;
    const load = viewer.load({ kind: 'files', files: [{ path: 's-big.jsonl', blob: new Blob([text]) }] });
    // The hold is taken once the files are sized, before the parse is awaited.
    await vi.waitFor(() => expect(calls.holds).toBe(1));
    heldDuringLoad = idleWorkHeld();
    await load;
    expect(viewer.state).toBe('ready');
    expect(heldDuringLoad).toBe(true);
    expect(calls).toEqual({ warm: 1, holds: 1, released: 1 });
    expect(idleWorkHeld()).toBe(false);
  });

  it('once such a session is parsed, draws it only after the idle work it held is done', async () => {
    const viewer = new Viewer();
    const finish = idleWorkStarted();
    const load = viewer.load({ kind: 'files', files: [{ path: 's-big.jsonl', blob: new Blob([session(100, 90_000)]) }] });
    await vi.waitFor(() => expect(idleWorkHurried()).toBe(true), { timeout: 10_000 });
    // Parsed and released, not drawn: the work fills idle periods now, the hold lifted.
    expect(calls.released).toBe(1);
    expect(idleWorkHeld()).toBe(false);
    expect(viewer.current).toBeNull();
    expect(viewer.state).toBe('loading');
    finish();
    await load;
    expect(viewer.state).toBe('ready');
    expect(idleWorkHurried()).toBe(false);
  });

  it('a small session does not wait for idle work', async () => {
    const viewer = new Viewer();
    const finish = idleWorkStarted();
    await viewer.load({ kind: 'files', files: [{ path: 's-small.jsonl', blob: new Blob([session(3, 100)]) }] });
    expect(viewer.state).toBe('ready');
    finish();
  });

  it('holds idle work while it walks a dropped folder, and releases it when the walk ends', async () => {
    const viewer = new Viewer();
    let heldDuringWalk = false;
    const walk = async () => {
      heldDuringWalk = idleWorkHeld();
      return { files: [{ path: 'p/s-small.jsonl', blob: new Blob([session(3, 100)]) }], unreadable: [] };
    };
    await viewer.load({ kind: 'folder', name: 'p', walk });
    expect(viewer.state).toBe('ready');
    expect(heldDuringWalk).toBe(true);
    expect(calls).toMatchObject({ holds: 1, released: 1 });
    expect(idleWorkHeld()).toBe(false);
  });

  it('for a drop of many files as big, starts the Markdown worker but holds nothing (a scan lists it first)', async () => {
    const viewer = new Viewer();
    const files = Array.from({ length: 21 }, (_, i) => ({ path: `p/s${i}.jsonl`, blob: new Blob([session(5, 80_000).replaceAll('s-big', `s-${i}`)]) }));
    expect(files.reduce((n, f) => n + f.blob.size, 0)).toBeGreaterThan(8 * 1024 * 1024);
    await viewer.load({ kind: 'files', files });
    expect(viewer.state).toBe('ready');
    expect(calls).toEqual({ warm: 1, holds: 0, released: 0 });
  });

  it('for a small session, neither', async () => {
    const viewer = new Viewer();
    await viewer.load({ kind: 'files', files: [{ path: 's-small.jsonl', blob: new Blob([session(3, 100)]) }] });
    expect(viewer.state).toBe('ready');
    expect(calls).toEqual({ warm: 0, holds: 0, released: 0 });
  });

  it('stores a scanned drop’s scans for the next drop in idle periods, none at ready', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    try {
      const viewer = new Viewer();
      // More sessions than SCAN_MIN_SESSIONS: listed from a scan. Files, as a drop gives them: a
      // scan is kept by the file's identity (its path, size and modification time).
      const files = Array.from({ length: 30 }, (_, i) => ({ path: `p/s${i}.jsonl`, blob: new File([session(2, 50).replaceAll('s-big', `s-${i}`)], `s${i}.jsonl`, { lastModified: 1_700_000_000_000 }) }));
      await viewer.load({ kind: 'files', files });
      expect(viewer.state).toBe('ready');
      await new Promise((r) => setTimeout(r, 100));
      expect([viewer.scansKept, idle.length > 0]).toEqual([0, true]);
      // Each idle period as it is asked for, until the scans are kept.
      await vi.waitFor(
        () => {
          idle.shift()?.();
          expect(viewer.scansKept).toBe(30);
        },
        { timeout: 5000, interval: 5 }
      );
      expect(viewer.scansKept).toBe(30);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
