// Random resumed sessions for property tests: a chain of transcript files where each file after
// the first resumes the one before it, the way Claude Code writes a resume: optional `summary`
// records, then copies (same uuids) of the previous file's last chain lines, then new lines that
// continue the conversation. A copy is verbatim unless `mutate` shifts its timestamp (a shape
// only viewer mode promises to handle). Lines mix prompts, tool calls and results, replies and
// queued_command attachments (string and image-only prompts), so both the graph rule and the
// absorbed rule see copies.
import fc from 'fast-check';

export interface ChainFile {
	stem: string;
	rows: Record<string, unknown>[];
}

export interface ChainSpec {
	/** new lines per file (the first file's whole chain, then each resume's continuation) */
	lengths: number[];
	/** per resume: how many of the previous file's last chain lines it copies */
	overlaps: number[];
	/** per resume: how many summary records it starts with */
	summaries: number[];
	/** per new line: what it is */
	kinds: number[];
	/** per resume: copies get a shifted timestamp (not verbatim) */
	mutate: boolean[];
}

const PNG = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
const T0 = Date.UTC(2026, 5, 10, 13, 0, 0);

export const chainSpec = (maxFiles = 4): fc.Arbitrary<ChainSpec> =>
	fc.integer({ min: 1, max: maxFiles }).chain((n) =>
		fc.record({
			lengths: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: n, maxLength: n }),
			overlaps: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: n - 1, maxLength: n - 1 }),
			summaries: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n - 1, maxLength: n - 1 }),
			kinds: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 40, maxLength: 40 }),
			mutate: fc.array(fc.boolean(), { minLength: n - 1, maxLength: n - 1 })
		})
	);

/** The files of a spec, oldest first. Stems are F0, F1, ... with a uuid-like tail. */
export function buildChain(spec: ChainSpec, allowMutation: boolean): ChainFile[] {
	const files: ChainFile[] = [];
	let clock = 0;
	let k = 0;
	let prevChain: Record<string, unknown>[] = [];
	for (let f = 0; f < spec.lengths.length; f++) {
		const stem = `F${f}-0000-4000-8000-00000000000${f}`;
		const rows: Record<string, unknown>[] = [];
		let parent: string | null = null;
		const chain: Record<string, unknown>[] = [];
		if (f > 0) {
			for (let s = 0; s < spec.summaries[f - 1]; s++) rows.push({ type: 'summary', summary: `part ${f}.${s}`, leafUuid: prevChain.at(-1)?.uuid });
			const m = Math.min(spec.overlaps[f - 1], prevChain.length);
			const shift = allowMutation && spec.mutate[f - 1];
			for (const r of prevChain.slice(prevChain.length - m)) {
				const copy = shift ? { ...r, timestamp: new Date(Date.parse(r.timestamp as string) + 1000).toISOString() } : { ...r };
				rows.push(copy);
				chain.push(copy);
			}
			parent = (prevChain.at(-1)?.uuid as string | undefined) ?? null;
		}
		let openCall: string | null = null;
		for (let i = 0; i < spec.lengths[f]; i++) {
			const uuid = `f${f}-${i}`;
			const kind = spec.kinds[k++ % spec.kinds.length];
			clock += 2;
			const base = { uuid, parentUuid: parent, timestamp: new Date(T0 + clock * 1000).toISOString(), sessionId: stem, isSidechain: false };
			let row: Record<string, unknown>;
			if (kind === 0 || (i === 0 && f === 0)) {
				row = { type: 'user', ...base, promptSource: 'typed', message: { role: 'user', content: `prompt ${uuid}` } };
			} else if (kind === 1) {
				openCall = `toolu_${uuid}`;
				row = { type: 'assistant', ...base, message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id: openCall, name: 'Read', input: {} }], stop_reason: 'tool_use' } };
			} else if (kind === 2 && openCall) {
				row = { type: 'user', ...base, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: openCall, content: 'ok' }] } };
				openCall = null;
			} else if (kind === 3) {
				row = { type: 'attachment', ...base, attachment: { type: 'queued_command', prompt: `queued ${uuid}` } };
			} else if (kind === 4) {
				row = { type: 'attachment', ...base, attachment: { type: 'queued_command', prompt: [PNG] } };
			} else {
				row = { type: 'assistant', ...base, message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text: `reply ${uuid}` }], stop_reason: 'end_turn' } };
			}
			rows.push(row);
			chain.push(row);
			parent = uuid;
		}
		files.push({ stem, rows });
		prevChain = chain;
	}
	return files;
}

export const jsonlOf = (file: ChainFile): string => file.rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** uuid → stem of the last file, in the given read order, holding a line with that uuid. */
export function lastHolders(files: ChainFile[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const f of files) for (const r of f.rows) if (typeof r.uuid === 'string') out.set(r.uuid, f.stem);
	return out;
}
