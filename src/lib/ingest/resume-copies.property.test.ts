// Property: random resumed sessions (scripts/lib/resume-chains.ts: summary records and copies of
// the previous file's tail at the start of each resume), dropped in a random order through the
// whole ingest pipeline (classify, group, viewer-mode model). The files form one lineage, so
// they load as one session that shows every prompt and reply, and no uuid yields two atoms —
// also when the copies are not verbatim.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSessions } from './load-files.ts';
import { buildChain, chainSpec, jsonlOf } from '../../../scripts/lib/resume-chains.ts';
import type { InputFile } from './types.ts';

const order = fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 4, maxLength: 4 });

describe('ingest of resumed files that copy the previous tail', () => {
	it('one session per lineage, every prompt and reply shown once, in any drop order', async () => {
		await fc.assert(
			fc.asyncProperty(chainSpec(), order, fc.boolean(), async (spec, keys, mutate) => {
				const files = buildChain(spec, mutate);
				const inputs: InputFile[] = files
					.map((f, i) => [{ path: `proj/${f.stem}.jsonl`, blob: new Blob([jsonlOf(f)]) }, keys[i] ?? 0] as const)
					.sort((a, b) => a[1] - b[1])
					.map(([x]) => x);
				const out = await loadSessions(inputs);
				expect(out.sessions).toHaveLength(1);
				const atoms = out.sessions[0].result.session.turns.flatMap((t) => t.atoms).filter((a) => a.uuid !== null);
				const uuids = atoms.map((a) => a.uuid!);
				expect(new Set(uuids).size).toBe(uuids.length);
				const shown = new Set(uuids);
				for (const f of files) {
					for (const r of f.rows) {
						if ((r.type === 'user' || r.type === 'assistant') && typeof r.uuid === 'string') expect(shown.has(r.uuid)).toBe(true);
					}
				}
			}),
			{ numRuns: 120 }
		);
	});
});
