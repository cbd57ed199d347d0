import { describe, expect, it } from 'vitest';
import { blocksText, deriveAuthor, normContent, parseCommand, parseStdout, postalPairs, type AuthorContext } from './text.ts';

const ctx = (postal: Record<string, string> = {}, sdkHuman = false): AuthorContext => ({ postal: new Map(Object.entries(postal)), sdkHuman });

describe('deriveAuthor (reference §2.6)', () => {
	it('maps promptSource: typed/queued → human, sdk → sdk, system → system', () => {
		expect(deriveAuthor('hi', 'typed', ctx())).toBe('human');
		expect(deriveAuthor('hi', 'queued', ctx())).toBe('human');
		expect(deriveAuthor('hi', 'sdk', ctx())).toBe('sdk');
		expect(deriveAuthor('hi', 'system', ctx())).toBe('system');
	});
	it('the sdk-human switch authors an unmarked sdk prompt human', () => {
		expect(deriveAuthor('hi', 'sdk', ctx({}, true))).toBe('human');
	});
	it('untagged text is human; no text and no promptSource is no author', () => {
		expect(deriveAuthor('hi', undefined, ctx())).toBe('human');
		expect(deriveAuthor('', undefined, ctx())).toBeNull();
	});
	it('task-notification / system-reminder at the START author system, even over typed', () => {
		expect(deriveAuthor('<task-notification>done</task-notification>', 'typed', ctx())).toBe('system');
		expect(deriveAuthor('<system-reminder>x</system-reminder>', undefined, ctx())).toBe('system');
		expect(deriveAuthor('see <task-notification>', 'typed', ctx())).toBe('human');
	});
	it('the teammate preamble (case-insensitive, inside one wrapper tag) beats a postal marker', () => {
		expect(deriveAuthor('<prompt>\nAnother Claude session sent a message:\nhi', 'sdk', ctx())).toBe('teammate');
		expect(deriveAuthor('another claude session sent a message: x <!-- romp-msg-id: m1 -->', 'sdk', ctx({ m1: 'p' }))).toBe('teammate');
		expect(deriveAuthor('USER ASKED: Another Claude session sent a message:', 'typed', ctx())).toBe('human');
	});
	it('romp-injected authors romp, even over typed; the postal marker beats it', () => {
		expect(deriveAuthor('nudge <!-- romp-injected -->', 'typed', ctx())).toBe('romp');
		expect(deriveAuthor('nudge <!-- romp-injected --> <!-- romp-msg-id: m1 -->', 'typed', ctx({ m1: 'peer-1' }))).toEqual({ peer: 'peer-1', mid: 'm1', kind: '' });
		expect(deriveAuthor('quotes romp-injected in prose', 'typed', ctx())).toBe('human');
	});
	it('postal: the last RESOLVABLE marker wins, else the last pair with peer null', () => {
		const text = 'a <!-- romp-msg-id: m1 -->\n<!-- romp-msg-kind: delegate -->\nb <!-- romp-msg-id: m2 -->';
		expect(deriveAuthor(text, undefined, ctx({ m1: 'p1' }))).toEqual({ peer: 'p1', mid: 'm1', kind: 'delegate' });
		expect(deriveAuthor(text, undefined, ctx({ m1: 'p1', m2: 'p2' }))).toEqual({ peer: 'p2', mid: 'm2', kind: '' });
		expect(deriveAuthor(text, undefined, ctx())).toEqual({ peer: null, mid: 'm2', kind: '' });
	});
	it('postal marker whitespace uses Python \\s (e.g. U+3000 ideographic space)', () => {
		expect(deriveAuthor('x <!--\u3000romp-msg-id:\u3000m9\u3000-->', undefined, ctx())).toEqual({ peer: null, mid: 'm9', kind: '' });
	});
});

describe('postalPairs', () => {
	it('binds a kind to the id before it; ignores kinds before any id, unknown kinds and a second kind', () => {
		const t = '<!-- romp-msg-kind: delegate --><!-- romp-msg-id: a --><!-- romp-msg-kind: urgent --><!-- romp-msg-kind: coordinate --><!-- romp-msg-kind: question -->';
		expect(postalPairs(t)).toEqual([{ mid: 'a', kind: 'coordinate' }]);
	});
});

describe('text and content', () => {
	it('joins text blocks with one space and Python-strips; other blocks contribute nothing', () => {
		expect(blocksText([{ type: 'text', text: ' a ' }, { type: 'thinking', thinking: 'x' }, { type: 'text', text: 'b\x1c' }])).toBe('a  b');
	});
	it('reads a null text block as "" and flags it', () => {
		const bad = { nullText: false };
		expect(blocksText([{ type: 'text', text: null }, { type: 'text', text: 'x' }], bad)).toBe('x');
		expect(bad.nullText).toBe(true);
	});
	it('normContent: blank string → no block, string → one block, list kept', () => {
		expect(normContent('  \n')).toEqual([]);
		expect(normContent(' hi ')).toEqual([{ type: 'text', text: ' hi ' }]);
		const list = [{ type: 'image' }];
		expect(normContent(list)).toBe(list);
		expect(normContent(null)).toEqual([]);
	});
});

describe('commands', () => {
	it('recognises <command-name>-first and wrapper-first invocations, prepends "/", appends stripped args', () => {
		expect(parseCommand('<command-name>model</command-name>\n<command-args> opus </command-args>')).toEqual({ name: '/model', display: '/model opus' });
		expect(parseCommand('<command-message>x</command-message>\n<command-name>/review</command-name>')).toEqual({ name: '/review', display: '/review' });
		expect(parseCommand('<command-name></command-name>')).toEqual({ name: '/?', display: '/?' });
		expect(parseCommand('prose quoting <command-name>/x</command-name>')).toBeNull();
	});
	it('strips ANSI/CSI escapes from local command stdout', () => {
		expect(parseStdout('<local-command-stdout>\u001b[1mbold\u001b[22m \u001b[38;5;114mcolour\u001b[39m\n</local-command-stdout>')).toBe('bold colour');
		expect(parseStdout('<local-command-stdout></local-command-stdout>')).toBe('');
		expect(parseStdout('nope')).toBeNull();
	});
});
