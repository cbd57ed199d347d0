// Finding secrets in one string: keyword prefilter (gitleaks' scheme: a rule's regex runs only
// when one of its keywords occurs), regex, entropy and allowlists, then overlap resolution in
// rule order. Also the finding identity (kind + a hash of the exact string) and the masked
// preview the dialog shows, so the secret itself never needs to reach the page's state.
import type { Rule } from './rules.ts';

export interface Match {
	/** Rule id: the `kind` of the finding. */
	kind: string;
	/** [start, end) of the replaced text in the string. */
	start: number;
	end: number;
	value: string;
	replacement: string;
	/** Finding identity: kind + FNV-1a of the value. */
	id: string;
}

/** Shannon entropy in bits per character (gitleaks' measure). */
export function entropy(s: string): number {
	if (!s) return 0;
	const counts = new Map<string, number>();
	for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
	let h = 0;
	const n = s.length;
	for (const c of counts.values()) {
		const p = c / n;
		h -= p * Math.log2(p);
	}
	return h;
}

/** 32-bit FNV-1a as 8 hex digits: a stable id for a found string that does not reveal it. */
export function fnv1a(s: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return (h >>> 0).toString(16).padStart(8, '0');
}

export const findingId = (kind: string, value: string): string => `${kind}:${fnv1a(value)}:${value.length}`;

/** "ghp_…Zx (40 chars)": enough to recognise a string, not enough to use it. */
export function maskPreview(value: string): string {
	const n = [...value].length;
	const flat = value.replace(/\s+/g, ' ');
	if (n <= 6) return `${'•'.repeat(n)} (${n} chars)`;
	const head = n >= 16 ? flat.slice(0, 4) : flat.slice(0, 1);
	const tail = n >= 24 ? flat.slice(-2) : '';
	return `${head}…${tail} (${n} chars)`;
}

/** One prefilter for a rule list: every keyword, case-insensitive, in one alternation. */
export interface RuleSet {
	rules: Rule[];
	keywordRe: RegExp;
	/** keyword (lower case) → indexes of the rules it unlocks. */
	byKeyword: Map<string, number[]>;
	/** Rules without keywords always run. */
	always: number[];
}

export function ruleSet(rules: Rule[]): RuleSet {
	const byKeyword = new Map<string, number[]>();
	const always: number[] = [];
	rules.forEach((r, i) => {
		if (!r.keywords.length) always.push(i);
		for (const k of r.keywords) byKeyword.set(k.toLowerCase(), [...(byKeyword.get(k.toLowerCase()) ?? []), i]);
	});
	const alts = [...byKeyword.keys()].sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return { rules, keywordRe: new RegExp(alts.join('|') || '(?!)', 'gi'), byKeyword, always };
}

/** Indexes of the rules whose keywords occur in `text` (sorted), or null when none do. */
function activeRules(text: string, set: RuleSet): number[] | null {
	const active = new Set(set.always);
	const re = set.keywordRe;
	re.lastIndex = 0;
	for (let m = re.exec(text); m; m = re.exec(text)) {
		for (const i of set.byKeyword.get(m[0].toLowerCase()) ?? []) active.add(i);
		if (active.size === set.rules.length) break;
	}
	return active.size ? [...active].sort((a, b) => a - b) : null;
}

function hasDigit(s: string): boolean {
	return /\d/.test(s);
}

/** Every accepted match in `text`, sorted by position, non-overlapping (earlier rules win). */
export function findMatches(text: string, set: RuleSet): Match[] {
	if (text.length < 2) return [];
	const order = activeRules(text, set);
	if (!order) return [];
	// Accepted matches, sorted and non-overlapping; each rule's matches come in order, so one
	// pointer walk finds overlaps with earlier (more specific) rules.
	let taken: Match[] = [];
	for (const i of order) {
		const rule = set.rules[i];
		const fresh: Match[] = [];
		let p = 0;
		rule.re.lastIndex = 0;
		for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
			if (m[0].length === 0) {
				rule.re.lastIndex++;
				continue;
			}
			const group = !rule.wholeMatch && m.length > 1 ? firstGroup(m) : 0;
			const span = m.indices?.[group];
			if (!span) continue;
			const [start, end] = span;
			while (p < taken.length && taken[p].end <= start) p++;
			if (p < taken.length && taken[p].start < end) continue;
			const value = text.slice(start, end);
			if (!accept(rule, value, m[0])) continue;
			fresh.push({ kind: rule.id, start, end, value, replacement: rule.replacement, id: findingId(rule.id, value) });
		}
		if (fresh.length) taken = taken.length ? merge(taken, fresh) : fresh;
	}
	return taken;
}

function merge(a: Match[], b: Match[]): Match[] {
	const out: Match[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i].start < b[j].start) ? a[i++] : b[j++]);
	return out;
}

function firstGroup(m: RegExpExecArray): number {
	for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return g;
	return 0;
}

function accept(rule: Rule, secret: string, match: string): boolean {
	if (rule.entropy && entropy(secret) < rule.entropy) return false;
	if (rule.requireDigit && !hasDigit(secret)) return false;
	if (rule.allowSecret.some((re) => re.test(secret))) return false;
	if (rule.allowMatch.some((re) => re.test(match))) return false;
	return true;
}

/** `text` with every match replaced, except those whose finding id is in `keep`. */
export function applyMatches(text: string, matches: Match[], keep: ReadonlySet<string>): string {
	let out = '';
	let at = 0;
	for (const m of matches) {
		if (keep.has(m.id)) continue;
		out += text.slice(at, m.start) + m.replacement;
		at = m.end;
	}
	return at === 0 ? text : out + text.slice(at);
}
