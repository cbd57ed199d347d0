// Focused cases of the Strap export that the corpus round trip (strap-roundtrip.test.ts) first
// caught: what a subagent's summary is, what becomes a harness message, and what `leftOut` counts.
import { describe, expect, it } from 'vitest';
import type { MetadataLine } from '../../model/types.ts';
import { assistant, call, result, resetClock, session, text, toolUse, turn, user } from '../chat/test-builders.ts';
import { toStrap, type StrapState } from './strap.ts';

const META = { title: 't', sessionKey: 'k', startedAt: null, endedAt: null, redaction: 'off' };
const events = (s: StrapState) => s.root.children;

describe('Strap export', () => {
	it("a fork's summary is the subagent's answer, not the tool_result text with Claude Code's agent trailer", () => {
		resetClock();
		const answer = 'The parser drops the last row.';
		const trailer = `${answer}\nagentId: a1 (use SendMessage with to: 'a1' to continue this agent)\n<usage>total_tokens: 10</usage>`;
		const s = session([turn([user('u', 'go'), ...call('t1', 'Task', { prompt: 'look', description: 'Look', subagent_type: 'Explore' }, trailer, { toolUseResult: { status: 'completed', content: [{ type: 'text', text: answer }] } })])]);
		const state = toStrap(s, {}, META);
		const fork = events(state)[1].calls![0];
		expect(fork).toMatchObject({ tool: 'agent.fork', ok: true, output: { summary: answer } });
		// Without the result line's content, the tool_result text is all there is.
		const bare = toStrap(session([turn([user('u', 'go'), ...call('t2', 'Task', { prompt: 'look' }, 'plain answer')])]), {}, META);
		expect(events(bare)[1].calls![0].output).toEqual({ summary: 'plain answer' });
	});

	it('command output, skill instructions and API errors are harness messages, counted in leftOut', () => {
		resetClock();
		const s = session([
			turn([
				user('u', '/context', { command: '/context' }),
				assistant('c', [text('Context Usage 33%')], { command: true, stop: 'end_turn' })
			]),
			turn([
				user('u2', 'use the skill'),
				assistant('sk', [], { skillMd: 'Skill: always test first', stop: null }),
				assistant('e', [text('API Error: 500 overloaded')], { isApiError: true, stop: 'end_turn' })
			])
		]);
		const state = toStrap(s, {}, META);
		expect(events(state).map((e) => [e.from, e.text])).toEqual([
			['user', '/context'],
			['harness', 'Context Usage 33%'],
			['user', 'use the skill'],
			['harness', 'Skill: always test first'],
			['harness', 'API Error: 500 overloaded']
		]);
		expect(state.loupe.leftOut).toContain('3 command output, skill or API error message(s) written as plain harness messages (their kind is not kept)');
	});

	it("records outside the conversation that the chat names are counted in leftOut (the session's and a subagent's)", () => {
		resetClock();
		const note = (line: number, type: string, value: unknown): MetadataLine => ({ file: 'f.jsonl', line, type, t: null, value });
		const metadata = [
			note(3, 'system:api_error', { retryAttempt: 1, maxRetries: 10 }),
			note(4, 'system:away_summary', { content: 'Recap' }),
			note(5, 'system:turn_duration', { durationMs: 5 }), // restates the rows: no row, not counted
			note(6, 'mystery', { x: 1 }) // nobody names it: a raw card, under "records Loupe could not name"
		];
		const child = { agentType: 'Explore', result: { session: session([turn([user('cu', 'look'), assistant('ca', [text('found')], { stop: 'end_turn' })])]), metadata: [note(2, 'system:informational', { content: 'hook ran' })] } };
		const s = session([turn([user('u', 'go'), assistant('a', [toolUse('t1', 'Task', { prompt: 'look' })]), result('r', 't1', 'found')])]);
		const state = toStrap(s, { t1: child }, META, undefined, metadata);
		expect(state.loupe.leftOut).toContain('3 system record(s) outside the conversation (hook notes, recaps, retried API errors)');
		expect(state.loupe.leftOut).toContain('idle periods and records Loupe could not name');
	});

	it('content that is not a block, in a prompt or a reply, is counted as other content', () => {
		resetClock();
		const s = session([turn([user('u', 'x', { message: { role: 'user', content: ['stray', { type: 'text', text: 'hi' }] as never } }), assistant('a', [42 as never, text('ok')], { stop: 'end_turn' })])]);
		expect(toStrap(s, {}, META).loupe.leftOut).toContain('2 other content block(s)');
	});
});
