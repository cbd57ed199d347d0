import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import { dropFolder } from '../../ingest/test-helpers.ts';
import type { BilledCall } from '../../view/history/types.ts';
import { builtSessionsSource, HistoryUsageService } from './history-usage.ts';

const call = (id: string, ms: number, output: number): BilledCall => ({ id, ms, sessionId: 's', sessionKey: 'k', project: 'p', harness: 'claude-code', model: 'claude-sonnet-4-5-20250929', serviceTier: null, input: 1, output, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, webSearches: 0, onPath: true, subagent: false });

describe('HistoryUsageService', () => {
  it('prepares the calls once per version and again when the version changes', async () => {
    let version = 1;
    let reads = 0;
    let calls = [call('a', 1000, 5), call('b', 2000, 7), call('a', 1500, 9)];
    const svc = new HistoryUsageService({ version: () => version, calls: () => (reads++, calls) });
    expect((await svc.usage({ by: 'day' })).total).toMatchObject({ messages: 2, output: 16 });
    await svc.usage({ by: 'model' });
    expect(reads).toBe(1);
    calls = [...calls, call('c', 3000, 1)];
    version = 2;
    expect((await svc.usage({ by: 'day' })).total.messages).toBe(3);
    expect(reads).toBe(2);
    const page = await svc.calls(1, 2);
    expect(page.total).toBe(3);
    expect(page.calls.map((c) => c.id)).toEqual(['b']); // deduplicated, in time order
  });

  it('reads the built sessions\' calls, once per session object', async () => {
    const { sessions } = await loadSessions(dropFolder(resolve(import.meta.dirname, '../../../../fixtures/history/claude/projects')));
    const byKey = new Map(sessions.map((s) => [s.key, { loaded: s, rows: null }]));
    const svc = new HistoryUsageService(builtSessionsSource({ builtKeys: () => [...byKey.keys()], built: async (k) => byKey.get(k) ?? null }, { generation: 1 }));
    const r = await svc.usage({ by: 'session' });
    expect(r.total).toMatchObject({ input: 1780, output: 4875 });
    expect(r.rows.every((x) => sessions.some((s) => s.key === x.sessionKey))).toBe(true);
  });
});
