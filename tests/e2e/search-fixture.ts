// A small project folder for the search specs, written to a temp dir: session A (a Bash call
// whose output alone holds QUOKKA, a Task call whose subagent transcript alone holds PANGOLIN,
// replies for whole-word and regex cases) and session B (a prompt alone holding NARWHAL).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const T0 = Date.UTC(2026, 5, 2, 10, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const base = (sid: string) => ({ sessionId: sid, cwd: '/work/demo', version: '2.1.30', userType: 'external' });

function chain(sid: string, recs: Record<string, unknown>[], extra: Record<string, unknown> = {}): string {
  let parent: string | null = null;
  return recs
    .map((r) => {
      const line = { ...base(sid), isSidechain: false, ...extra, parentUuid: parent, ...r };
      parent = r.uuid as string;
      return JSON.stringify(line);
    })
    .join('\n') + '\n';
}

const user = (uuid: string, s: number, text: string) => ({ type: 'user', uuid, timestamp: at(s), promptSource: 'typed', message: { role: 'user', content: text } });
const reply = (uuid: string, s: number, text: string) => ({ type: 'assistant', uuid, timestamp: at(s), message: { id: `m-${uuid}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 5 } } });
const use = (uuid: string, s: number, id: string, name: string, input: unknown) => ({ type: 'assistant', uuid, timestamp: at(s), message: { id: `m-${uuid}`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 5 } } });
const res = (uuid: string, s: number, id: string, content: string, tur: unknown = undefined) => ({ type: 'user', uuid, timestamp: at(s), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: false }] }, ...(tur ? { toolUseResult: tur } : {}) });

export function writeSearchProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'loupe-search-'));
  const dir = join(root, 'proj');
  mkdirSync(join(dir, 'sess-a', 'subagents'), { recursive: true });
  writeFileSync(
    join(dir, 'sess-a.jsonl'),
    chain('sess-a', [
      user('a-u1', 0, 'Please tidy the build folder'),
      use('a-c1', 2, 'toolu_ls', 'Bash', { command: 'ls build', description: 'List build' }),
      res('a-r1', 3, 'toolu_ls', 'total 3\nOUTPUT-ONLY-QUOKKA 17\nend'),
      reply('a-a1', 4, 'The cat sat; a scattered catalog; cat again. Error 404 and error 500 were seen.'),
      user('a-u2', 60, 'Ask a helper about the parser'),
      use('a-t1', 62, 'toolu_task', 'Task', { description: 'Inspect parser', prompt: 'Look at the parser please', subagent_type: 'general-purpose' }),
      res('a-tr1', 90, 'toolu_task', 'Parser looks fine', { agentId: 'abc123', status: 'completed', content: [{ type: 'text', text: 'Parser looks fine' }] }),
      reply('a-a2', 91, 'The helper says the parser is fine.')
    ])
  );
  writeFileSync(
    join(dir, 'sess-a', 'subagents', 'agent-abc123.jsonl'),
    chain(
      'sess-a',
      [
        user('s-u1', 63, 'Look at the parser please'),
        use('s-c1', 64, 'toolu_grep', 'Grep', { pattern: 'TODO' }),
        res('s-r1', 65, 'toolu_grep', 'parser.ts:10: SUBAGENT-PANGOLIN marker'),
        reply('s-a1', 66, 'Looks fine to me.')
      ],
      { isSidechain: true, agentId: 'abc123' }
    )
  );
  writeFileSync(
    join(dir, 'sess-b.jsonl'),
    chain('sess-b', [user('b-u1', 3600, 'ONLY-IN-SESSION-B-NARWHAL please look'), reply('b-a1', 3602, 'Looked.')])
  );
  return dir;
}
