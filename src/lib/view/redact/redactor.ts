// Redaction over structured data: a Redactor (option set → rules → string → string), a deep
// map over plain JSON-like values that copies only what changed, and the findings list (each
// distinct string once, with a count and where it was seen). Identifiers (uuids, tool-use ids,
// signatures, timestamps) are never scanned: rewriting one would break how records link up; nor
// are base64 payloads (`{type: "base64", data}` of images and documents): no rule reads base64.
import { DEFAULT_REDACT, rulesFor, type RedactOptions } from './rules.ts';
import { applyMatches, findMatches, maskPreview, ruleSet, type Match, type RuleSet } from './scan.ts';

/** Keys whose values are identifiers or bookkeeping, never user content. */
const STRUCTURAL = new Set([
	'uuid', 'parentUuid', 'leafUuid', 'logicalParentUuid', 'sessionId', 'session_id', 'requestId', 'id', 'tool_use_id',
	'toolUseId', 'sourceToolUseID', 'messageId', 'signature', 'timestamp', 'type', 'fsid', 'leafFsid', 'rompUuid', 'agentId',
	'promptId', 'version', 'model', 'stop_reason', 'media_type', 'ms', 't', 'end', 'line', 'key', 'atomUuid', 'atomUuids',
	'callUuid', 'resultUuid', 'status', 'kind', 'role'
]);

export interface Redactor {
	readonly options: RedactOptions;
	/** The accepted matches of one string (kept ones included). */
	matches(s: string): Match[];
	/** One string with everything redacted except what `keep` names. */
	text(s: string): string;
	/** A plain value with every content string redacted (copies only what changed). */
	deep<T>(v: T): T;
	/**
	 * A string that may have been cut short from content redacted before (a title clipped to 80
	 * characters): redacted, and any word that is the start of a string redacted earlier is masked
	 * too, because a cut secret no longer matches its rule.
	 */
	clipped(s: string): string;
}

const CLIP_MIN = 6;
const MEMO_MIN = 256;

export function makeRedactor(options: Partial<RedactOptions> = {}): Redactor {
	const opts: RedactOptions = { ...DEFAULT_REDACT, ...options };
	const set: RuleSet = ruleSet(rulesFor(opts));
	const keep = new Set(opts.keep);
	const seen = new Map<string, string>();
	// Transcripts say many long things twice (a tool result and its toolUseResult): redact each once.
	const memo = new Map<string, string>();
	const text = (s: string): string => {
		if (!set.rules.length) return s;
		if (s.length >= MEMO_MIN) {
			const hit = memo.get(s);
			if (hit !== undefined) return hit;
		}
		const ms = findMatches(s, set);
		for (const m of ms) if (!keep.has(m.id) && m.value.length > CLIP_MIN) seen.set(m.value, m.replacement);
		const out = applyMatches(s, ms, keep);
		if (s.length >= MEMO_MIN) memo.set(s, out);
		return out;
	};
	const deep = <T>(v: T): T => mapStrings(v, text) as T;
	const clipped = (s: string): string =>
		text(s).replace(/[^\s"'`()<>[\]]{6,}/g, (w) => {
			const stem = w.replace(/…$/, '');
			for (const [value, replacement] of seen) if (stem.length >= CLIP_MIN && value !== stem && value.startsWith(stem)) return replacement;
			return w;
		});
	return { options: opts, matches: (s) => findMatches(s, set), text, deep, clipped };
}

function mapStrings(v: unknown, fn: (s: string) => string): unknown {
	if (typeof v === 'string') return fn(v);
	if (Array.isArray(v)) {
		let out: unknown[] | null = null;
		for (let i = 0; i < v.length; i++) {
			const n = mapStrings(v[i], fn);
			if (n !== v[i]) (out ??= v.slice())[i] = n;
		}
		return out ?? v;
	}
	if (v && typeof v === 'object') {
		let out: Record<string, unknown> | null = null;
		const obj = v as Record<string, unknown>;
		const base64 = obj.type === 'base64';
		for (const k in obj) {
			if (STRUCTURAL.has(k) || (base64 && k === 'data')) continue;
			const n = mapStrings(obj[k], fn);
			if (n !== obj[k]) (out ??= { ...obj })[k] = n;
		}
		return out ?? v;
	}
	return v;
}

/** Where a finding was seen: the file and line, the atom (record uuid) and the field path. */
export interface FindingPlace {
	file: string;
	line: number | null;
	atomUuid: string | null;
	field: string;
}

export interface Finding {
	/** Stable id (kind + hash of the exact string); unticking keeps this string. */
	id: string;
	kind: string;
	/** Masked: enough to recognise, not enough to use. */
	preview: string;
	/** Occurrences over everything scanned. */
	count: number;
	/** The first few places it occurs. */
	places: FindingPlace[];
}

const MAX_PLACES = 5;

/** Accumulates findings over many strings: the same string found anywhere is one finding. */
export class FindingCollector {
	#byId = new Map<string, Finding>();
	#redactor: Redactor;
	constructor(redactor: Redactor) {
		this.#redactor = redactor;
	}

	/** Scans a plain value (a JSON record) and notes every match with its field path. */
	scan(value: unknown, place: Omit<FindingPlace, 'field'>, path = ''): void {
		if (typeof value === 'string') {
			for (const m of this.#redactor.matches(value)) this.#note(m, { ...place, field: path || '(text)' });
			return;
		}
		if (Array.isArray(value)) {
			value.forEach((v, i) => this.scan(v, place, `${path}[${i}]`));
			return;
		}
		if (value && typeof value === 'object') {
			const base64 = (value as { type?: unknown }).type === 'base64';
			for (const [k, v] of Object.entries(value)) {
				if (STRUCTURAL.has(k) || (base64 && k === 'data')) continue;
				this.scan(v, place, path ? `${path}.${k}` : k);
			}
		}
	}

	#note(m: Match, place: FindingPlace): void {
		let f = this.#byId.get(m.id);
		if (!f) {
			f = { id: m.id, kind: m.kind, preview: maskPreview(m.value), count: 0, places: [] };
			this.#byId.set(m.id, f);
		}
		f.count++;
		if (f.places.length < MAX_PLACES && !f.places.some((p) => p.atomUuid === place.atomUuid && p.field === place.field && p.line === place.line)) {
			f.places.push(place);
		}
	}

	/** Findings in the order first seen. */
	list(): Finding[] {
		return [...this.#byId.values()];
	}
}

/** A JSONL file's text with every record's content strings redacted; lines that are not JSON are redacted as text. */
export function redactJsonl(text: string, r: Redactor): string {
	const lines = text.split('\n');
	let changed = false;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (!line.trim()) continue;
		let out: string;
		try {
			const value: unknown = JSON.parse(line);
			const red = r.deep(value);
			out = red === value ? line : JSON.stringify(red);
		} catch {
			out = r.text(line);
		}
		if (out !== line) {
			lines[i] = out;
			changed = true;
		}
	}
	return changed ? lines.join('\n') : text;
}

/** Scans a JSONL file's records into a collector (non-JSON lines as text). */
export function scanJsonl(file: string, text: string, c: FindingCollector): void {
	let line = 0;
	for (const raw of text.split('\n')) {
		line++;
		if (!raw.trim()) continue;
		try {
			const value: unknown = JSON.parse(raw);
			const uuid = value && typeof value === 'object' && typeof (value as { uuid?: unknown }).uuid === 'string' ? (value as { uuid: string }).uuid : null;
			c.scan(value, { file, line, atomUuid: uuid });
		} catch {
			c.scan(raw, { file, line, atomUuid: null });
		}
	}
}

/** A dropped file's text, redacted: a whole JSON document (web export) or JSON lines. */
export function redactFileText(text: string, r: Redactor): string {
	const head = text.trimStart()[0];
	if (head === '[' || head === '{') {
		try {
			const whole: unknown = JSON.parse(text);
			const red = r.deep(whole);
			return red === whole ? text : JSON.stringify(red);
		} catch {
			// JSON lines: each line is its own record.
		}
	}
	return redactJsonl(text, r);
}

/** Findings over a session's input files, each distinct string once. */
export function scanFiles(files: readonly { path: string; text: string }[], r: Redactor): Finding[] {
	const c = new FindingCollector(r);
	for (const f of files) scanJsonl(f.path, f.text, c);
	return c.list();
}
