// Independent bookkeeping for the "nothing lost" tests: which lines a file really has (computed
// from its text, not from the model's reader) and where the model put each of them.
import type { ParseResult } from '../../src/lib/model/index.ts';

export interface RawLine { line: number; text: string }

/**
 * The non-blank lines of a file, numbered 1-based by physical line: a leading BOM is dropped, a CR
 * before LF is dropped, and a line of only spaces, tabs, CR, VT or FF is blank (as the reader has it).
 */
export function nonBlankLines(text: string): RawLine[] {
	return text
		.replace(/^\uFEFF/, '')
		.split('\n')
		.map((t, i) => ({ line: i + 1, text: t.replace(/\r$/, '') }))
		.filter((l) => !/^[ \t\r\v\f]*$/.test(l.text));
}

/**
 * An issue that is a line's only home (the line was dropped as broken). Other issues are warnings
 * about lines that live elsewhere (an atom with a duplicate uuid, a cycle member, ...).
 */
export function isAccounted(issue: object): boolean {
	return (issue as { accounted?: unknown }).accounted === true;
}

/**
 * Line numbers of `file` as placed by the model: line → the categories it landed in. Atoms are
 * matched by their viewer-mode `line` and `fsid` (file stem); a line may give several atoms; idle
 * and orphan atoms come from state-log rows, which are placed as metadata of the state log.
 */
export function placements(result: ParseResult, file: string): Map<number, Set<string>> {
	const stem = (file.split('/').pop() ?? file).replace(/\.jsonl$/, '');
	const at = new Map<number, Set<string>>();
	const put = (line: number | null | undefined, what: string) => {
		if (line == null) return;
		let set = at.get(line);
		if (!set) at.set(line, (set = new Set()));
		set.add(what);
	};
	for (const turn of result.session.turns)
		for (const atom of turn.atoms) if (atom.type !== 'idle' && !atom.orphaned && (atom.fsid == null || atom.fsid === stem)) put(atom.line, 'atom');
	for (const o of result.offPath) if (o.file === file) put(o.line, 'offPath');
	for (const m of result.metadata) if (m.file === file) put(m.line, 'metadata');
	for (const i of result.issues) if (i.file === file && isAccounted(i)) put(i.line, 'issue');
	return at;
}

/** Lines missing from every category, and lines placed in more than one. */
export function misplaced(result: ParseResult, file: string, lines: RawLine[]): { missing: number[]; twice: string[] } {
	const at = placements(result, file);
	return {
		missing: lines.filter((l) => !at.has(l.line)).map((l) => l.line),
		twice: [...at].filter(([, where]) => where.size > 1).map(([line, where]) => `${line}: ${[...where].join('+')}`)
	};
}

export function accountingAddsUp(result: ParseResult): boolean {
	const a = result.accounting;
	return a.atoms + a.offPath + a.metadata + a.issues === a.lines;
}
