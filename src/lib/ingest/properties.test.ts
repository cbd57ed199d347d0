// Property tests: classification never throws and always explains 'unknown'; grouping of random
// resume forests keeps every file, puts each session's files in dependency order, leaf last.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readRecords } from '../model/index.ts';
import { classifyFile, HEAD_BYTES } from './classify.ts';
import { groupSessions } from './group.ts';
import { summarize } from './summary.ts';
import { enc, jsonl } from './test-helpers.ts';
import type { ClassifiedFile, FileSummary } from './types.ts';

describe('classifyFile on arbitrary input', () => {
	it('never throws; unknown always has a reason; bytes are reported', () => {
		const path = fc.stringMatching(/^[a-z0-9/._-]{1,30}$/);
		const content = fc.oneof(
			fc.uint8Array({ maxLength: 300 }),
			fc.string({ maxLength: 300 }).map(enc),
			fc.array(fc.jsonValue(), { maxLength: 5 }).map((rows) => enc(rows.map((r) => JSON.stringify(r)).join('\n')))
		);
		fc.assert(
			fc.property(path, content, fc.integer({ min: 0, max: 400 }), (p, bytes, cut) => {
				const c = classifyFile(p, bytes.subarray(0, Math.min(cut, HEAD_BYTES)), bytes.length);
				expect(c.bytes).toBe(bytes.length);
				if (c.kind === 'unknown') expect(c.reason).toBeTruthy();
			}),
			{ numRuns: 400 }
		);
	});
});

describe('groupSessions on random resume forests', () => {
	it('every transcript is in a plan; candidates follow parent links; the leaf is last and no file descends from it', () => {
		// Each file i > 0 either starts fresh or resumes from a line of an earlier file parent[i].
		const forest = fc.array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 8 });
		fc.assert(
			fc.property(forest, (links) => {
				const classified: ClassifiedFile[] = [];
				const summaries = new Map<string, FileSummary>();
				const parentOf: (number | null)[] = links.map((l, i) => (i === 0 || l === null ? null : l % i));
				parentOf.forEach((par, i) => {
					const path = `p/F${i}.jsonl`;
					const rows = [0, 1].map((k) => ({
						type: 'user',
						uuid: `f${i}-${k}`,
						parentUuid: k === 0 ? (par === null ? null : `f${par}-1`) : `f${i}-0`,
						sessionId: `F${i}`,
						timestamp: new Date(Date.UTC(2026, 0, 1 + i, 0, k)).toISOString(),
						message: { role: 'user', content: 'x' }
					}));
					const bytes = enc(jsonl(rows));
					const c = classifyFile(path, bytes, bytes.length);
					classified.push(c);
					summaries.set(path, summarize(path, readRecords(path, [bytes])));
				});
				const { plans } = groupSessions(classified, summaries);
				const idx = (name: string) => Number(/F(\d+)/.exec(name)?.[1]);
				const covered = new Set(plans.flatMap((p) => p.mainFiles.map((f) => idx(f.name))));
				expect(covered.size).toBe(links.length);
				for (const p of plans) {
					const chain = p.mainFiles.map((f) => idx(f.name));
					const leaf = chain[chain.length - 1];
					expect(p.key).toBe(`F${leaf}`);
					// No file descends from a leaf.
					expect(parentOf.includes(leaf)).toBe(false);
					// The chain is exactly the leaf's ancestry, root first.
					const want: number[] = [];
					for (let at: number | null = leaf; at !== null; at = parentOf[at]) want.unshift(at);
					expect(chain).toEqual(want);
				}
			}),
			{ numRuns: 200 }
		);
	});
});
