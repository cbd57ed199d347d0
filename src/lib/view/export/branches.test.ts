// Exports of a session with rewound branches (fixtures/model/rewind-nested): Markdown and HTML
// carry each branch as a marked section at its rewind point (nested inside), Strap as an
// agent.fork of agent `rewound-branch` (valid against the schema); `branches: false` leaves them
// out; redaction reaches text on a branch.
import { describe, expect, it } from 'vitest';
import { fixtureSession } from '../chat/test-fixtures.ts';
import { describeRedaction, makeRedactor } from '../redact/index.ts';
import { validateSchema } from './json-schema.ts';
import { exportSession, type ExportSource, type StrapCall, type StrapEvent, type StrapState } from './index.ts';
import schema from './strap.schema.json';

const source = (): ExportSource => ({ key: 'k', title: 'Login test', startedAt: null, endedAt: null, session: fixtureSession('rewind-nested'), children: {} });
const plain = { redactor: null, redaction: describeRedaction(null) };

function forks(events: StrapEvent[]): StrapCall[] {
	return events.flatMap((e) => (e.calls ?? []).filter((c) => c.tool === 'agent.fork'));
}

describe('exports with rewound branches', () => {
	it('Markdown: a marked section at each rewind point, the nested one inside, in order', async () => {
		const md = (await exportSession(source(), 'markdown', plain)).text;
		const sections = md.match(/↶ Rewound here — [^<\n]*/g) ?? [];
		expect(sections).toHaveLength(3);
		expect(sections[0]).toMatch(/^↶ Rewound here — 6 messages, 2 tool calls, \$/);
		// order: first answer, the outer branch (with the nested one inside), the kept prompt
		const at = (s: string) => md.indexOf(s);
		expect(at('I will look at the login test.')).toBeLessThan(at('quokkafold'));
		expect(at('quokkafold')).toBeLessThan(at('platypine'));
		expect(at('platypine')).toBeLessThan(at('All twelve tests pass.'));
		expect(at('All twelve tests pass.')).toBeLessThan(at('Mock the clock'));
		expect(md).toContain('Rewound branch: tried here and abandoned');
		const without = (await exportSession(source(), 'markdown', { ...plain, branches: false })).text;
		expect(without).not.toContain('Rewound here');
		expect(without).not.toContain('quokkafold');
		expect(without).toContain('Mock the clock');
	});

	it('HTML: a rewound section per branch (data-row-kind="branch"), left out on request', async () => {
		const html = (await exportSession(source(), 'html', plain)).text;
		expect(html.match(/data-row-kind="branch"/g)).toHaveLength(3);
		expect(html).toContain('platypine');
		const without = (await exportSession(source(), 'html', { ...plain, branches: false })).text;
		expect(without).not.toContain('data-row-kind="branch"');
		expect(without).not.toContain('platypine');
	});

	it('Strap: each branch a fork of agent rewound-branch at its rewind point, nested forks inside; valid; left out on request', async () => {
		const state = JSON.parse((await exportSession(source(), 'strap', plain)).text) as StrapState;
		expect(validateSchema(schema, state)).toEqual([]);
		const top = forks(state.root.children);
		expect(top.map((c) => c.input.agent)).toEqual(['rewound-branch', 'rewound-branch']);
		// the first fork follows the first reply
		const i = state.root.children.findIndex((e) => e.calls?.some((c) => c.id === top[0].id));
		expect(state.root.children[i - 1].text).toBe('I will look at the login test.');
		const hidden = top[0].hidden!.messages;
		expect(hidden.some((e) => e.text.includes('quokkafold'))).toBe(true);
		const nested = forks(hidden);
		expect(nested).toHaveLength(1);
		expect(nested[0].hidden!.messages.some((e) => e.text.includes('platypine'))).toBe(true);
		expect(Object.keys(state.actors.agents)).toContain('rewound-branch');
		const without = JSON.parse((await exportSession(source(), 'strap', { ...plain, branches: false })).text) as StrapState;
		expect(forks(without.root.children)).toEqual([]);
	});

	it('redaction reaches the branches', async () => {
		const redactor = makeRedactor({ literals: ['quokkafold', 'platypine'] });
		for (const format of ['markdown', 'html', 'strap'] as const) {
			const text = (await exportSession(source(), format, { redactor, redaction: describeRedaction(redactor.options) })).text;
			expect(text).toContain('Rewound');
			expect(text).not.toContain('quokkafold');
			expect(text).not.toContain('platypine');
		}
	});
});
