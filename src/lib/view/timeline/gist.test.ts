import { describe, expect, it } from 'vitest';
import { collapseRepeats, cutAtWord, promptGist } from './gist.ts';

describe('promptGist', () => {
	it('takes the first non-empty line', () => {
		expect(promptGist('\n\n  refactor the ledger  \nand then the digest')).toBe('refactor the ledger');
	});

	it('reads a raw command invocation as "/name args"', () => {
		expect(promptGist('<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>')).toBe('/review PR 12');
		expect(promptGist('<command-name>/usage</command-name>')).toBe('/usage');
	});

	it('strips romp markers and [romp]', () => {
		expect(promptGist('<!-- romp-injected --><!-- romp-auto -->[romp] keep going with the tests')).toBe('keep going with the tests');
		expect(promptGist('please look <!-- romp-msg-id: 17.1_2.HOST -->')).toBe('please look');
	});

	it('skips the framing lines of a postal delivery', () => {
		const text = 'Stop hook feedback:\n📬 New message(s) from your romp peers:\n\n— from web (2026-07-23T09:10:12-0700):\nQUESTION: which auth story are we shipping?\n<!-- romp-msg-id: 1700000000.11111_22222.TESTHOST -->';
		expect(promptGist(text)).toBe('QUESTION: which auth story are we shipping?');
	});

	it('collapses repeated-token storms', () => {
		expect(collapseRepeats('retry retry retry retry now')).toBe('retry ×4 now');
		expect(collapseRepeats('go go now')).toBe('go go now');
	});

	it('cuts at a word boundary within 90 characters and marks the cut', () => {
		const long = 'word '.repeat(40).trim();
		const g = promptGist(long.replace(/word word/g, 'alpha beta'));
		expect(Array.from(g).length).toBeLessThanOrEqual(90);
		expect(g.endsWith('…')).toBe(true);
		expect(g).not.toMatch(/\s…$/);
		expect(cutAtWord('short')).toBe('short');
		expect(cutAtWord('x'.repeat(200), 10)).toBe('xxxxxxxxx…');
	});

	it('never splits a surrogate pair when cutting', () => {
		const g = cutAtWord('😀'.repeat(100), 10);
		expect(g).toBe('😀'.repeat(9) + '…');
	});

	it('returns "" when nothing meaningful remains', () => {
		expect(promptGist('<local-command-caveat></local-command-caveat>\n   ')).toBe('');
	});
});

describe('promptGist on a huge prompt', () => {
	it('reads only the head and still finds the first line', () => {
		expect(promptGist(`fix the flaky test\n${'x'.repeat(1_000_000)}`)).toBe('fix the flaky test');
	});
});

describe('promptGist and harness context', () => {
	it('skips IDE context and reminders wrapped around the ask', () => {
		const text = '<ide_opened_file>The user opened the file /a/plan.md in the IDE. This may or may not be related.</ide_opened_file>\nread plan.md and roadmap.md';
		expect(promptGist(text)).toBe('read plan.md and roadmap.md');
		expect(promptGist('<system-reminder>\nbe brief\n</system-reminder>\nship it')).toBe('ship it');
	});

	it('keeps the context when it is all there is', () => {
		expect(promptGist('<ide_selection>const x = 1;</ide_selection>')).toBe('const x = 1;');
	});
});
