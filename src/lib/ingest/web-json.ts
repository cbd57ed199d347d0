// Claude Code on the web exports a session as one JSON document {loglines: [{type, timestamp,
// message}, ...]} instead of JSON lines. This turns it into the records the model reads: each
// logline becomes one record ("line" = its 1-based index in loglines); the missing envelope is
// filled in so the lines form one chain: uuid `<stem>:<n>`, parentUuid the previous record,
// sessionId the file stem. Fields the export does have are kept as they are.
import type { FileRecords, Issue, LineRecord } from '../model/index.ts';
import { stemOf } from './paths.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function webJsonRecords(file: string, text: string): FileRecords {
	const issues: Issue[] = [];
	const records: LineRecord[] = [];
	const bytes = new TextEncoder().encode(text).length;
	let doc: unknown;
	try {
		doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	} catch (e) {
		issues.push({ file, line: null, kind: 'invalid-json', message: `JSON document does not parse: ${e instanceof Error ? e.message : String(e)}` });
		return { file, bytes, lines: 0, records, issues };
	}
	const lines = isObj(doc) && Array.isArray(doc.loglines) ? doc.loglines : null;
	if (!lines) {
		issues.push({ file, line: null, kind: 'not-object', message: 'JSON document has no "loglines" array' });
		return { file, bytes, lines: 0, records, issues };
	}
	const stem = stemOf(file);
	let prev: string | null = null;
	lines.forEach((v, i) => {
		const line = i + 1;
		if (!isObj(v)) {
			issues.push({ file, line, kind: 'not-object', message: `loglines[${i}] is not an object` });
			return;
		}
		const uuid = typeof v.uuid === 'string' ? v.uuid : `${stem}:${line}`;
		const value: Obj = { ...v, uuid, parentUuid: 'parentUuid' in v ? v.parentUuid : prev, sessionId: typeof v.sessionId === 'string' ? v.sessionId : stem };
		prev = uuid;
		records.push({ line, value, bytes: JSON.stringify(v).length });
	});
	return { file, bytes, lines: lines.length, records, issues };
}
