import { describe, expect, it } from 'vitest';
import type { MetadataLine } from '../../model/types';
import { recordRow } from './records';
import { buildChatRows } from './rows';

const meta = (type: string, value: unknown, t = 100): MetadataLine => ({ file: 'f.jsonl', line: 7, type, uuid: 'x1', t, value });

describe('recordRow', () => {
  it('keeps bookkeeping and turn durations out of the chat', () => {
    expect(recordRow(meta('system:turn_duration', { durationMs: 5000 }), 'k', 0)).toBeNull();
    expect(recordRow(meta('custom-title', { customTitle: 'x' }), 'k', 0)).toBeNull();
  });

  it('shows an away summary as a notice with its recap', () => {
    const row = recordRow(meta('system:away_summary', { content: 'You fixed the \u001b[1mdate\u001b[0m bug.' }), 'k', 2);
    expect(row).toMatchObject({ kind: 'notice', title: 'Recap while you were away', text: 'You fixed the date bug.', turnIndex: 2, atomUuid: 'x1', ms: 100_000 });
  });

  it('shows an old-style system note under its first line, ANSI stripped', () => {
    const row = recordRow(meta('system', { content: '\u001b[2mRunning PostToolUse hook\u001b[22m\nmore' }), 'k', 0);
    expect(row).toMatchObject({ kind: 'notice', title: 'Running PostToolUse hook', text: 'Running PostToolUse hook\nmore' });
  });

  it('makes an API error a warning while retries remain and an alert on the last try', () => {
    const v = (n: number) => ({ error: { status: 529, error: { message: 'Overloaded' } }, retryAttempt: n, maxRetries: 10 });
    expect(recordRow(meta('system:api_error', v(2)), 'k', 0)).toMatchObject({ kind: 'error', tone: 'warning', status: 529, text: 'Overloaded (attempt 2 of 10, retrying)' });
    expect(recordRow(meta('system:api_error', v(10)), 'k', 0)).toMatchObject({ kind: 'error', tone: 'alert' });
  });

  it('shows a Stop hook summary only when a hook failed or blocked the stop', () => {
    expect(recordRow(meta('system:stop_hook_summary', { hookCount: 1, hookErrors: [], preventedContinuation: false }), 'k', 0)).toBeNull();
    expect(recordRow(meta('system:stop_hook_summary', { hookErrors: ['exit 2: lint failed'] }), 'k', 0)).toMatchObject({ kind: 'notice', title: 'Stop hook failed (1 error)', text: 'exit 2: lint failed' });
  });

  it('keeps a record nobody has a name for as a raw card with its JSON', () => {
    const row = recordRow(meta('atis-latch', { opaque: [1, 2] }), 'k', 0);
    expect(row?.kind).toBe('raw');
    expect(row && 'json' in row && row.json).toContain('"opaque"');
    expect(recordRow(meta('system:brand_new_subtype', { a: 1 }), 'k', 0)?.kind).toBe('raw');
  });
});

describe('records among the rows', () => {
  it('a note in the same second as the reply comes after it, an earlier one before it', () => {
    const session = {
      rompUuid: 's', name: 's', dir: '/', color: '#888888', leafFsid: 's', landedTextUuids: [],
      turns: [{
        id: 't1', trigger: { uuid: 'u1' }, t: 100, end: 101, ended: true,
        atoms: [
          { type: 'user', uuid: 'u1', session_id: 's', t: 100, ms: 100_200, author: 'human', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } },
          { type: 'assistant', uuid: 'a1', session_id: 's', t: 101, ms: 101_500, message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn' } }
        ]
      }]
    } as never;
    const rows = buildChatRows(session, {}, {
      metadata: [meta('system:away_summary', { content: 'late recap' }, 101), meta('system', { content: 'early note' }, 99)]
    });
    expect(rows.map((r) => r.kind === 'notice' ? r.text : r.kind)).toEqual(['early note', 'user', 'assistant', 'late recap']);
  });
});
