// Builds small, readable Claude Code transcripts for the end-to-end specs, with uuids the specs
// can name: turn i has prompt `u<i>`, a Bash call `c<i>` with its result `r<i>` (with `calls: n`,
// further calls `c<i>_<k>` / `r<i>_<k>` for k = 2..n), and a reply `a<i>`.
export function longSession(turns: number, opts: { start?: number; gapMs?: number; calls?: number } = {}): string {
  const start = opts.start ?? Date.UTC(2026, 6, 1, 9, 0, 0);
  const gap = opts.gapMs ?? 5 * 60_000;
  const lines: object[] = [];
  let parent: string | null = null;
  const base = { sessionId: 'e2e-session', cwd: '/work/demo', version: '2.1.30', isSidechain: false, userType: 'external' };
  const at = (ms: number) => new Date(ms).toISOString();
  for (let i = 1; i <= turns; i++) {
    const t = start + (i - 1) * gap;
    const push = (rec: Record<string, unknown>) => {
      lines.push({ ...base, parentUuid: parent, ...rec });
      parent = rec.uuid as string;
    };
    push({ type: 'user', uuid: `u${i}`, timestamp: at(t), promptSource: 'typed', message: { role: 'user', content: `Question number ${i}: what is in file ${i}?` } });
    for (let k = 1; k <= (opts.calls ?? 1); k++) {
      const id = k === 1 ? `${i}` : `${i}_${k}`;
      push({ type: 'assistant', uuid: `c${id}`, timestamp: at(t + 1000 + k * 1000), message: { id: `m${id}a`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'Bash', input: { command: `cat file${id}.txt`, description: 'Read it' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } } });
      push({ type: 'user', uuid: `r${id}`, timestamp: at(t + 1500 + k * 1000), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: `contents of file ${id}`, is_error: false }] }, toolUseResult: { stdout: `contents of file ${id}`, stderr: '', interrupted: false } });
    }
    push({ type: 'assistant', uuid: `a${i}`, timestamp: at(t + 2000 + (opts.calls ?? 1) * 1000), message: { id: `m${i}b`, role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: `File ${i} holds **contents of file ${i}**.` }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 9 } } });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
