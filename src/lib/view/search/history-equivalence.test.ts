// History search answers from the index exactly what the scan answers: on a generated tree, every
// session's index is built from its fields (as the history pass builds it), and 50 generated
// queries (words from the tree's text, substrings inside words, case and diacritic variants,
// whole word, CJK, regexes with and without literals, scopes, a hit cap) give the same total and
// the same hit list, in the same order, as runSearch over the same sessions' fields. The filters
// must also rule sessions out (a filter that said yes to everything would pass the rest).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../../../scripts/lib/files.ts';
import { loadListed } from '../../ingest/listed.ts';
import { scanInputs } from '../../ingest/scan.ts';
import type { SearchField } from './fields.ts';
import { buildSearchIndex, indexFields, type SessionSearchIndex } from './history-index.ts';
import { runHistorySearch } from './history-query.ts';
import { fieldsOfLoaded } from './lane.ts';
import type { SearchOptions } from './query.ts';
import { runSearch, type HistoryRunInfo, type SearchOutcome, type SearchRequest } from './run.ts';

let root = '';
const sessions: { key: string; fields: SearchField[]; index: SessionSearchIndex }[] = [];

beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), 'loupe-history-search-'));
	const tree = join(root, 'projects');
	execFileSync('node', [join(__dirname, '../../../../../shared/bench/gen-project.mjs'), '--mb', '2', '--sessions', '20', '--projects', '2', '--seed', '9', '--out', tree]);
	const files = filesUnder(tree).map((p) => ({ path: relative(root, p), blob: new Blob([readFileSync(p)]) }));
	const { listing } = await scanInputs(files);
	for (const s of listing.sessions) {
		const loaded = await loadListed(s, files.filter((f) => s.files.includes(f.path)));
		if (!loaded) continue;
		const fields = fieldsOfLoaded(loaded);
		sessions.push({ key: s.key, fields, index: await buildSearchIndex(fields) });
	}
}, 120_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

const hooks = { cancelled: () => false, pause: () => Promise.resolve() };

async function both(req: SearchRequest): Promise<{ scan: SearchOutcome; index: SearchOutcome; info: HistoryRunInfo }> {
	const scan = await runSearch(
		req,
		sessions.map((s) => ({ key: s.key, fields: () => ({ fields: s.fields, folded: [] }) })),
		hooks
	);
	const { outcome, info } = await runHistorySearch(
		req,
		sessions.map((s) => ({ key: s.key, filter: s.index.filter, source: { key: s.key, fields: async () => ({ fields: await indexFields(s.index), folded: [] }) } })),
		hooks
	);
	return { scan, index: outcome, info };
}

const untimed = (r: SearchOutcome) => (r.ok ? { ...r, ms: 0, firstMs: 0 } : r);

/** 50 queries from the tree's own text (seeded, so a failure names a query that stays the same). */
function queries(): SearchRequest[] {
	const text = sessions.flatMap((s) => s.fields.map((f) => f.text)).join('\n');
	const words = [...new Set(text.match(/\p{L}[\p{L}\p{N}_]{3,}/gu) ?? [])].sort();
	let seed = 9;
	const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
	// A string that occurs once: a slice of one field's text.
	const once = (() => {
		for (;;) {
			const f = pick(sessions).fields.filter((x) => x.text.length > 200);
			const t = pick(f).text;
			const at = Math.floor(rnd() * (t.length - 40));
			const s = t.slice(at, at + 30);
			if (text.indexOf(s) === text.lastIndexOf(s) && s.trim().length > 20) return s;
		}
	})();
	const q = (query: string, options: SearchOptions = {}, extra: Partial<SearchRequest> = {}): SearchRequest => ({ query, options, ids: true, ...extra });
	const out: SearchRequest[] = [];
	for (let i = 0; i < 11; i++) out.push(q(pick(words)));
	for (let i = 0; i < 6; i++) {
		const w = pick(words.filter((x) => x.length >= 6));
		out.push(q(w.slice(1, -1)));
	}
	out.push(q(once), q(once.toUpperCase()), q('zzqx never in the tree'));
	out.push(q('PARSER'), q('Parser', { caseSensitive: true }), q('parser', { caseSensitive: true }), q('ThE TrAnScRiPt'));
	out.push(q('café'), q('cafe'), q('cafe', { ignoreDiacritics: true }), q('CAFÉ', { ignoreDiacritics: true }), q('naive', { ignoreDiacritics: true }), q('NAÏVE'));
	out.push(q('line', { wholeWord: true }), q('pars', { wholeWord: true }), q('the parser', { wholeWord: true }), q('数据', { wholeWord: true }));
	out.push(q('数据'), q('数'), q('→ and'), q('✓'));
	out.push(
		q('rows\\d+ = parse', { regex: true }),
		q('truncated \\w+', { regex: true }),
		q('pars(er|ing)', { regex: true }),
		q('\\bcache\\b', { regex: true, wholeWord: true }),
		q('toolu_[A-Za-z0-9]+', { regex: true }),
		q('caf(e|é) ', { regex: true, ignoreDiacritics: true }),
		q('\\d{4}\\)', { regex: true }),
		q('[A-Z]{2}\\d', { regex: true }),
		q('parse|walk', { regex: true })
	);
	out.push(q('parser', {}, { maxHits: 37 }), q('the', {}, { scope: { kinds: ['tool-output'], tools: ['bash'] } }), q('fixture', {}, { scope: { authors: ['subagent'] } }));
	return out;
}

describe('history search from the index', () => {
	it('gives the scan’s total and hits for 50 generated queries', async () => {
		const qs = queries();
		expect(qs.length).toBe(50);
		let ruledOut = 0;
		let nonEmpty = 0;
		for (const req of qs) {
			const { scan, index, info } = await both(req);
			expect(scan.ok, req.query).toBe(true);
			expect(untimed(index), JSON.stringify(req)).toEqual(untimed(scan));
			if (scan.ok && scan.total) nonEmpty++;
			ruledOut += info.indexed - info.candidates;
		}
		expect(nonEmpty).toBeGreaterThan(40);
		expect(ruledOut).toBeGreaterThan(0);
	});

	it('a string that occurs once is verified in one session only; a regex without a literal scans all and says so', async () => {
		const f = sessions[3].fields.find((x) => x.text.length > 100)!;
		const { scan, info } = await both({ query: f.text.slice(10, 90) });
		expect(scan.ok && scan.total).toBeGreaterThan(0);
		expect(info.candidates).toBeLessThanOrEqual(2);
		const all = await both({ query: '\\d{3}', options: { regex: true } });
		expect(all.info.candidates).toBe(sessions.length);
		expect(all.info.scanAll).toMatch(/every session/);
	});
});
