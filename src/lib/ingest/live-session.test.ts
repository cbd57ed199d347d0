// LiveSession: a main transcript and its subagent transcripts appended in pieces, interleaved,
// give after each build what a full load of the same bytes gives (main result and attached
// children), and say which subagents changed.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from './load-files.ts';
import { LiveSession } from './live-session.ts';
import { filesUnder, WORKTREES } from './test-helpers.ts';

const base = resolve(WORKTREES, '..');
const paths = filesUnder(WORKTREES).filter((p) => p.endsWith('.jsonl'));
const files = paths.map((p) => ({ path: relative(base, p), bytes: new Uint8Array(readFileSync(p)), sub: p.includes('/subagents/') }));

/** The full load of each file's first n bytes. */
async function fullLoad(upto: Map<string, number>) {
	const out = await loadSessions(files.filter((f) => upto.has(f.path)).map((f) => ({ path: f.path, blob: new Blob([f.bytes.subarray(0, upto.get(f.path)) as BlobPart]) })));
	expect(out.sessions).toHaveLength(1);
	return out.sessions[0];
}

describe('LiveSession', () => {
	it('equals a full load after interleaved appends, and names the subagents that changed', async () => {
		const live = new LiveSession();
		const upto = new Map<string, number>();
		// Pieces of about a third of each file, cut at line ends so each build sees whole lines.
		const pieces = files.flatMap((f) => {
			const ends: number[] = [];
			for (let i = 0; i < f.bytes.length; i++) if (f.bytes[i] === 10) ends.push(i + 1);
			const cuts = [ends[Math.floor(ends.length / 3)], ends[Math.floor((2 * ends.length) / 3)], f.bytes.length];
			return cuts.map((end, k) => ({ f, start: k === 0 ? 0 : cuts[k - 1], end, k }));
		});
		pieces.sort((a, b) => a.k - b.k || (a.f.sub ? 1 : 0) - (b.f.sub ? 1 : 0));
		let round = -1;
		for (const p of pieces) {
			if (p.k !== round && round >= 0) {
				const got = live.build();
				const want = await fullLoad(upto);
				expect(got.result).toStrictEqual(want.result);
				expect(Object.keys(got.children).sort()).toEqual(Object.keys(want.children).sort());
				for (const [id, c] of Object.entries(want.children)) expect(got.children[id].result).toStrictEqual(c.result);
				expect(got.changedSubagents.sort()).toEqual(files.filter((f) => f.sub).map((f) => f.path).sort());
			}
			round = p.k;
			live.append(p.f.sub ? 'subagent' : 'transcript', p.f.path, p.f.bytes.subarray(p.start, p.end));
			upto.set(p.f.path, p.end);
		}
		const got = live.build();
		const want = await fullLoad(upto);
		expect(got.result).toStrictEqual(want.result);
		expect(Object.keys(got.children).length).toBe(6);
		// Nothing appended since: nothing changed.
		const again = live.build();
		expect(again.changedSubagents).toEqual([]);
		expect(again.change.path).toBe('unchanged');
		expect(again.result).toBe(got.result);
	});
});
