// Markdown export: the chat as a reader sees it, for a pull request, an issue or a gist.
// Prompts as quoted blocks under a speaker line, replies as they were written, thinking and
// tool runs in collapsible <details> (GitHub renders them), commands and shortened outputs in
// fences, edits as fenced `diff`, subagents nested under their call. What it leaves out is
// said once at the top (images, full outputs, raw JSON beyond a preview).
import type { ChatRow, GroupEntry, ToolCallView } from '../chat/types.ts';
import { BRANCH_NOTE, diffText, fenced, isoTime, progressTicker, shorten, type ExportMeta, type OnExportProgress } from './common.ts';

const OUT_LINES = 40;
const OUT_CHARS = 4000;

export const MARKDOWN_LEAVES_OUT = [
	'images (a placeholder says where one was)',
	`tool outputs beyond ${OUT_LINES} lines or ${OUT_CHARS.toLocaleString('en')} characters (each cut is marked)`,
	'tool inputs other than commands, paths, patterns and edits',
	'token usage and timing details'
];

function quote(text: string): string {
	return text
		.split('\n')
		.map((l) => (l ? `> ${l}` : '>'))
		.join('\n');
}

/** Text that must not open HTML inside a <summary> line. */
function inline(text: string, max = 140): string {
	const flat = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
	const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
	return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function details(summary: string, body: string): string {
	return `<details>\n<summary>${summary}</summary>\n\n${body.trim()}\n\n</details>`;
}

function output(label: string, text: string | null | undefined, lang = ''): string {
	if (!text) return '';
	const s = shorten(text, OUT_LINES, OUT_CHARS);
	return `${label}\n\n${fenced(s.text, lang)}${s.cut ? `\n\n_${s.cut}_` : ''}`;
}

function callMd(c: ToolCallView): string {
	const parts: string[] = [];
	const status = c.status === 'error' ? ' — **failed**' : c.status === 'no-result' ? ' — _no result recorded_' : '';
	parts.push(`**${inline(c.title)}**${status}`);
	if (c.command) parts.push(fenced(c.command, 'sh'));
	else if (c.target && !c.diffs?.length) parts.push(`\`${c.target.replace(/`/g, "'")}\``);
	if (c.diffs?.length) {
		for (const d of c.diffs) {
			const s = shorten(diffText(d), 200, 20_000);
			parts.push(fenced(s.text, 'diff') + (s.cut ? `\n\n_${s.cut}_` : ''));
		}
	} else if (c.todos?.length) {
		parts.push(c.todos.map((t) => `- [${t.status === 'completed' ? 'x' : ' '}] ${t.content}${t.status === 'in_progress' ? ' _(in progress)_' : ''}`).join('\n'));
	} else if (c.renderer === 'generic' && !c.command) {
		parts.push(output('Input', c.inputJson, 'json'));
	}
	if (!c.diffs?.length && c.renderer !== 'todo') {
		if (c.stdout !== undefined || c.stderr !== undefined) {
			parts.push(output('Output', c.stdout));
			parts.push(output('Errors', c.stderr));
		} else {
			parts.push(output(c.status === 'error' ? 'Error' : 'Output', c.output));
		}
	}
	if (c.images.length) parts.push(`_[${c.images.length} image${c.images.length > 1 ? 's' : ''} left out]_`);
	return parts.filter(Boolean).join('\n\n');
}

function entryMd(e: GroupEntry): string {
	if (e.kind === 'tool') return callMd(e.call);
	return e.state === 'text' ? details('Thought', quote(e.text)) : '_Thought (not recorded)_';
}

function rowMd(row: ChatRow, depth: number): string {
	const time = row.ms !== null ? ` · ${isoTime(row.ms)}` : '';
	switch (row.kind) {
		case 'user': {
			const who = row.command ? `${row.author.label} ran ${row.command}` : row.author.label;
			const img = row.images.length ? `\n>\n> _[${row.images.length} image${row.images.length > 1 ? 's' : ''} left out]_` : '';
			return `**${inline(who)}**${time}\n\n${quote(row.text || ' ')}${img}`;
		}
		case 'assistant':
			return row.text;
		case 'thinking':
			return row.state === 'text' ? details('Thought', quote(row.text)) : '_Thought (not recorded)_';
		case 'tool':
			return details(inline(row.call.title), callMd(row.call));
		case 'tool-group': {
			const head = `${inline(row.summary)}${row.trailer ? ` · ${inline(row.trailer)}` : ''}`;
			return details(head, row.entries.map(entryMd).join('\n\n---\n\n'));
		}
		case 'delegation': {
			const who = row.agentType ? ` (${inline(row.agentType)})` : '';
			const body = [
				`**Task**\n\n${quote(row.prompt || ' ')}`,
				row.childRows ? row.childRows.map((r) => rowMd(r, depth + 1)).join('\n\n') : '_The subagent transcript was not loaded._',
				row.result ? `**Result**\n\n${row.result}` : '_No result recorded._'
			];
			return details(`Subagent: ${inline(row.description)}${who}`, body.join('\n\n'));
		}
		case 'question':
			return row.questions
				.map((q) => {
					const opts = q.options.map((o) => `- ${o.chosen ? '**✔ ' + o.label + '**' : o.label}${o.description ? ` — ${o.description}` : ''}`).join('\n');
					return `**Question:** ${q.question}\n\n${opts}${q.answer ? `\n\n**Answer:** ${q.answer}` : ''}`;
				})
				.join('\n\n') + (row.resultText ? `\n\n**Answer:** ${row.resultText}` : '');
		case 'approval':
			return details(`Plan — ${row.decision}`, `${row.plan}${row.feedback ? `\n\n**Feedback:** ${row.feedback}` : ''}`);
		case 'compaction': {
			const tokens = row.preTokens !== null ? ` (${row.preTokens.toLocaleString('en')} tokens before)` : '';
			const head = `Context compacted${row.trigger ? ` · ${row.trigger}` : ''}${tokens}`;
			return row.summary ? details(inline(head), quote(row.summary)) : `_${head}_`;
		}
		case 'error':
			return `> **${row.errorKind === 'refusal' ? 'Refusal' : 'API error'}${row.status !== null ? ` ${row.status}` : ''}:** ${row.text.replace(/\n/g, ' ')}`;
		case 'notice':
			return row.text ? details(inline(row.title), row.markdown ? row.text : fenced(shorten(row.text, OUT_LINES, OUT_CHARS).text)) : `_${inline(row.title)}_`;
		case 'raw':
			return details(`Record: ${inline(row.title)}`, output('', row.json, 'json'));
		case 'branch':
			return details(`↶ ${inline(row.label)}`, [`_${BRANCH_NOTE}_`, ...row.branchRows.map((r) => rowMd(r, depth + 1))].join('\n\n'));
	}
}

export function toMarkdown(rows: ChatRow[], meta: ExportMeta, onProgress?: OnExportProgress): string {
	const tick = progressTicker('markdown', rows.length, onProgress);
	const head = [
		`# ${meta.title.replace(/\n/g, ' ')}`,
		'',
		`> Exported from Loupe${meta.startedAt ? ` · session ${isoTime(meta.startedAt)} – ${isoTime(meta.endedAt)}` : ''}  `,
		`> ${meta.redaction}  `,
		`> Left out: ${MARKDOWN_LEAVES_OUT.join('; ')}.`,
		''
	];
	const body: string[] = [];
	let turn = -1;
	rows.forEach((row, i) => {
		if (row.turnIndex !== turn && row.kind === 'user') {
			if (turn !== -1) body.push('---');
			turn = row.turnIndex;
		}
		body.push(rowMd(row, 0));
		tick(i + 1);
	});
	return `${head.join('\n')}\n${body.join('\n\n')}\n`;
}
