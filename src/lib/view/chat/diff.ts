// File diffs for Edit / MultiEdit / Write / NotebookEdit calls. Prefers the patch Claude Code
// recorded (`toolUseResult.structuredPatch`, real line numbers); otherwise computes one from the
// old and new text with the `diff` package (real line numbers when the original file was
// recorded, snippet-relative and flagged `approximate` when it was not).

import { structuredPatch } from 'diff';
import { isRecord, str } from './content';
import type { DiffHunk, DiffLine, FileDiff } from './types';

/** Beyond this many characters of input, skip Myers and show old as removed / new as added. */
const DIFF_INPUT_CAP = 400_000;

/** Turn a recorded structuredPatch hunk list (lines prefixed '+', '-', ' ', '\') into hunks. */
export function hunksFromPatch(patch: unknown): DiffHunk[] | null {
	if (!Array.isArray(patch)) return null;
	const hunks: DiffHunk[] = [];
	for (const h of patch) {
		if (!isRecord(h) || !Array.isArray(h.lines)) return null;
		const oldStart = typeof h.oldStart === 'number' ? h.oldStart : 1;
		const newStart = typeof h.newStart === 'number' ? h.newStart : 1;
		hunks.push(numberLines(oldStart, newStart, h.lines.filter((l): l is string => typeof l === 'string')));
	}
	return hunks;
}

function numberLines(oldStart: number, newStart: number, raw: string[]): DiffHunk {
	let o = oldStart;
	let n = newStart;
	const lines: DiffLine[] = [];
	let oldLines = 0;
	let newLines = 0;
	for (const l of raw) {
		const op = l[0];
		const text = l.slice(1);
		if (op === '+') {
			lines.push({ op: '+', text, oldNo: null, newNo: n++ });
			newLines++;
		} else if (op === '-') {
			lines.push({ op: '-', text, oldNo: o++, newNo: null });
			oldLines++;
		} else if (op === '\\') {
			continue; // "\ No newline at end of file"
		} else {
			lines.push({ op: ' ', text: op === ' ' ? text : l, oldNo: o++, newNo: n++ });
			oldLines++;
			newLines++;
		}
	}
	return { oldStart, oldLines, newStart, newLines, lines };
}

/** Hunks between two texts, computed with the `diff` package (3 lines of context). */
export function computeHunks(oldText: string, newText: string): DiffHunk[] {
	if (oldText.length + newText.length > DIFF_INPUT_CAP) return [wholeReplace(oldText, newText)];
	const p = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 3 });
	return p.hunks.map((h) => numberLines(h.oldStart, h.newStart, h.lines));
}

function splitLines(s: string): string[] {
	if (s === '') return [];
	const lines = s.split('\n');
	if (lines[lines.length - 1] === '') lines.pop();
	return lines;
}

function wholeReplace(oldText: string, newText: string): DiffHunk {
	const raw = [...splitLines(oldText).map((l) => `-${l}`), ...splitLines(newText).map((l) => `+${l}`)];
	return numberLines(1, 1, raw);
}

export function statOf(hunks: DiffHunk[]): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const h of hunks) for (const l of h.lines) l.op === '+' ? added++ : l.op === '-' ? removed++ : 0;
	return { added, removed };
}

function fileDiff(path: string, hunks: DiffHunk[], approximate: boolean, mode: FileDiff['mode']): FileDiff {
	return { path, hunks, approximate, mode, ...statOf(hunks) };
}

/** Apply old→new string replacement(s) to a recorded original file. */
function applyEdit(original: string, oldS: string, newS: string, all: boolean): string | null {
	if (oldS === '') return null;
	if (!original.includes(oldS)) return null;
	return all ? original.split(oldS).join(newS) : original.replace(oldS, () => newS);
}

/**
 * The diffs of an edit-family call, or null when the call carries no usable edit.
 * `name` is the tool name (Edit, MultiEdit, Write, NotebookEdit), `input` its input and
 * `result` the raw `toolUseResult` of its result line (may be anything, including a string).
 */
export function diffsForCall(name: string, input: unknown, result: unknown): FileDiff[] | null {
	const inp = isRecord(input) ? input : {};
	const res = isRecord(result) ? result : {};
	const path = str(res.filePath) ?? str(inp.file_path) ?? str(inp.notebook_path) ?? str(inp.path) ?? '(unknown file)';
	const many = patchFiles(res.files);
	if (many) return many;
	const recorded = hunksFromPatch(res.structuredPatch);
	const original = str(res.originalFile) ?? str(res.originalFileContents);

	if (name === 'Write') {
		const content = str(inp.content) ?? str(res.content) ?? '';
		const created = res.type === 'create' || (original === null && !(recorded && recorded.length));
		if (recorded && recorded.length) return [fileDiff(path, recorded, false, created ? 'create' : 'overwrite')];
		if (created) return [fileDiff(path, [wholeReplace('', content)], false, 'create')];
		return [fileDiff(path, computeHunks(original ?? '', content), false, 'overwrite')];
	}
	if (name === 'NotebookEdit') {
		const src = str(inp.new_source) ?? '';
		return [fileDiff(path, [wholeReplace('', src)], true, 'edit')];
	}
	const edits: { oldS: string; newS: string; all: boolean }[] = [];
	if (name === 'MultiEdit' && Array.isArray(inp.edits)) {
		for (const e of inp.edits) {
			if (isRecord(e)) edits.push({ oldS: str(e.old_string) ?? '', newS: str(e.new_string) ?? '', all: e.replace_all === true });
		}
	} else if (name === 'Edit') {
		edits.push({
			oldS: str(inp.old_string) ?? str(res.oldString) ?? '',
			newS: str(inp.new_string) ?? str(res.newString) ?? '',
			all: inp.replace_all === true
		});
	} else return null;

	if (recorded && recorded.length) return [fileDiff(path, recorded, false, 'edit')];
	if (original !== null) {
		let next: string | null = original;
		for (const e of edits) next = next === null ? null : applyEdit(next, e.oldS, e.newS, e.all);
		if (next !== null) return [fileDiff(path, computeHunks(original, next), false, 'edit')];
	}
	if (!edits.length) return null;
	const hunks = edits.flatMap((e) => computeHunks(e.oldS, e.newS));
	return [fileDiff(path, hunks, true, 'edit')];
}

/**
 * A recorded multi-file patch (`toolUseResult.files`: {filePath, type, edits[{old_string,
 * new_string}], structuredPatch?}, the canonical shape adapters give a patch tool): one diff per
 * file, with real line numbers when the applied diff was recorded, else snippet-relative ones.
 */
function patchFiles(files: unknown): FileDiff[] | null {
	if (!Array.isArray(files) || !files.length) return null;
	const out: FileDiff[] = [];
	for (const f of files) {
		if (!isRecord(f)) continue;
		const path = str(f.filePath) ?? '(unknown file)';
		const edits = Array.isArray(f.edits) ? f.edits.filter(isRecord) : [];
		const recorded = hunksFromPatch(f.structuredPatch);
		const hunks = recorded ?? edits.flatMap((e) => computeHunks(str(e.old_string) ?? '', str(e.new_string) ?? ''));
		const mode = f.type === 'create' ? 'create' : 'edit';
		out.push(fileDiff(str(f.movePath) ? `${path} \u2192 ${str(f.movePath)}` : path, hunks, !recorded && mode !== 'create', mode));
	}
	return out.length ? out : null;
}

/** "+12 −3" (U+2212 minus, as in the design). */
export function statLabel(added: number, removed: number): string {
	return `+${added} \u2212${removed}`;
}
