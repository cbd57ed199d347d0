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

// The rules read through Python's `re` (pyre.ts): the cases below are where JavaScript's own
// semantics (or the earlier hand-written shortcuts) gave a different answer than the reference.
describe('Python regex semantics in the rules', () => {
	it('a harness tag needs a word boundary after its name (Unicode \\b)', () => {
		expect(deriveAuthor('<task-notification>done</task-notification>', undefined, ctx())).toBe('system');
		expect(deriveAuthor('<task-notification-x>', undefined, ctx())).toBe('system');
		expect(deriveAuthor('<task-notificationé>', undefined, ctx())).toBe('human');
		expect(deriveAuthor('<system-reminder中', undefined, ctx())).toBe('human');
		expect(deriveAuthor('<system-reminder\u0301', undefined, ctx())).toBe('system'); // a combining mark is not \w
	});
	it('the teammate preamble: one <\\w+> wrapper (Unicode), case folded as Python folds', () => {
		expect(deriveAuthor('<프롬프트>Another Claude session sent a message: hi', 'sdk', ctx())).toBe('teammate');
		expect(deriveAuthor('<_1>\u3000another claude session sent a message: hi', 'sdk', ctx())).toBe('teammate');
		expect(deriveAuthor('ANOTHER CLAUDE SESSİON SENT A MESSAGE: hi', 'sdk', ctx())).toBe('teammate');
		expect(deriveAuthor('Another Claude seſſıon sent a message: hi', 'sdk', ctx())).toBe('teammate');
		expect(deriveAuthor('<prompt id="1">Another Claude session sent a message: hi', 'sdk', ctx())).toBe('sdk');
		expect(deriveAuthor('<p-x>Another Claude session sent a message: hi', 'sdk', ctx())).toBe('sdk');
	});
	it('postal ids stop at Python whitespace: \\x1c and NBSP end an id, ZWSP does not', () => {
		expect(postalPairs('<!-- romp-msg-id: a\u001cb -->')).toEqual([]);
		expect(postalPairs('<!--\u00a0romp-msg-id:\u2003a1\u00a0-->')).toEqual([{ mid: 'a1', kind: '' }]);
		expect(postalPairs('<!-- romp-msg-id: a\u200bb -->')).toEqual([{ mid: 'a\u200bb', kind: '' }]);
	});
	it('a command name cannot hold "<"; any wrapper (stdout too) may precede the tag', () => {
		expect(parseCommand('<command-name>/a<b</command-name>')).toBeNull();
		expect(parseCommand('<command-name>/a<b</command-name> <command-name>/c</command-name>')).toEqual({ name: '/c', display: '/c' });
		expect(parseCommand('<local-command-stdout>x</local-command-stdout><command-name>/y</command-name>')).toEqual({ name: '/y', display: '/y' });
	});
	it('stdout needs its closing tag and strips only CSI codes with digits, ";" and "?" (romp); viewer is lenient (D10)', () => {
		expect(parseStdout('<local-command-stdout>unclosed')).toBeNull();
		expect(parseStdout('<local-command-stdout>unclosed', true)).toBe('unclosed');
		expect(parseStdout('<local-command-stdout>\u001b[1:2mx\u001b[0m</local-command-stdout>')).toBe('\u001b[1:2mx');
		expect(parseStdout('<local-command-stdout>\u001b[1:2mx\u001b[0m</local-command-stdout>', true)).toBe('x');
	});
});
