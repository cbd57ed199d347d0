// The views and components never know which agent wrote a session: tool identity and authors
// are normalized in the model's adapters (src/lib/model/<harness>/), so a view that tests a
// harness name, or imports an adapter, is a bug. Session facts like the harness label arrive as
// data (SessionMeta.harness / harnessLabel) and are rendered, never compared.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../src/lib');
const GUARDED = ['view', 'components'];
const NAMES = /\b(codex|gemini|strap|opencode|pi-mono|openai|anthropic)\b/i;
// "cursor" is also an everyday word (a position in a list, the CSS property): the editor is named
// with a capital, or as a quoted id.
const CURSOR = /\bCursor\b|['"`]cursor['"`]/;
const ADAPTER_IMPORT = /from\s+['"][^'"]*model\/(codex|strap|gemini|pi|cursor|opencode|harness)(\/|['"])/;

/**
 * Where a name is data, not identity: the Strap export writes Strap's state shape (an output
 * format, whatever harness the session came from), and the secret rules name the vendors whose
 * tokens they find. Each entry allows exactly those names in exactly that folder.
 */
const ALLOWED: { folder: string; names: RegExp }[] = [
	{ folder: 'view/export/', names: /\bstrap\b/gi },
	{ folder: 'view/redact/', names: /\b(openai|anthropic)\b/gi }
];

function scrub(rel: string, line: string): string {
	return ALLOWED.filter((a) => rel.startsWith(a.folder)).reduce((l, a) => l.replace(a.names, ''), line);
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const p = join(dir, name);
		return statSync(p).isDirectory() ? filesUnder(p) : /\.(ts|svelte|css)$/.test(p) ? [p] : [];
	});
}

describe('views and components are harness-blind', () => {
	const files = GUARDED.flatMap((d) => filesUnder(join(ROOT, d)));
	it('finds the files it guards', () => expect(files.length).toBeGreaterThan(40));
	for (const f of files) {
		it(`${relative(ROOT, f)} names no harness and imports no adapter`, () => {
			const text = readFileSync(f, 'utf8');
			const lines = text.split('\n');
			const rel = relative(ROOT, f);
			const named = lines.map((l, i) => [i + 1, l] as const).filter(([, l]) => NAMES.test(scrub(rel, l)) || CURSOR.test(l) || ADAPTER_IMPORT.test(l));
			expect(named.map(([n, l]) => `${n}: ${l.trim()}`)).toEqual([]);
		});
	}
	it('the pattern catches a harness name and an adapter import', () => {
		expect(NAMES.test("if (meta.harness === 'codex')")).toBe(true);
		expect(NAMES.test('label = "Gemini"')).toBe(true);
		expect(ADAPTER_IMPORT.test("import { parseStrapDocument } from '../../model/strap/parse.ts';")).toBe(true);
		expect(CURSOR.test("harness === 'cursor'")).toBe(true);
		expect(CURSOR.test('a Cursor transcript')).toBe(true);
		expect(CURSOR.test('let cursor = 0; el.style.cursor = "grab"')).toBe(false);
		// The allowances are per folder: Strap as an export format is fine, as an input check it is not.
		expect(NAMES.test(scrub('view/export/strap.ts', 'writes strap.state.v0.3'))).toBe(false);
		expect(NAMES.test(scrub('view/chat/items.ts', "if (harness === 'strap')"))).toBe(true);
	});
});
