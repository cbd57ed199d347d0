// Redaction over structured data: a Redactor (option set → rules → string → string), a deep
// map over plain JSON-like values that copies only what changed, and the findings list (each
// distinct string once, with a count and where it was seen). Identifiers (uuids, tool-use ids,
// signatures, timestamps) are never scanned: rewriting one would break how records link up.
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
}

export function makeRedactor(options: Partial<RedactOptions> = {}): Redactor {
	const opts: RedactOptions = { ...DEFAULT_REDACT, ...options };
	const set: RuleSet = ruleSet(rulesFor(opts));
	const keep = new Set(opts.keep);
	const text = (s: string): string => (set.rules.length ? applyMatches(s, findMatches(s, set), keep) : s);
	const deep = <T>(v: T): T => mapStrings(v, text) as T;
	return { options: opts, matches: (s) => findMatches(s, set), text, deep };
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
		for (const k in obj) {
			if (STRUCTURAL.has(k)) continue;
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
			for (const [k, v] of Object.entries(value)) {
				if (STRUCTURAL.has(k)) continue;
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
