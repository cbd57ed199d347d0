// FileSummary: the facts about one read file that grouping and the session list need (ids,
// cross-file parent links, titles, first prompt, time span), computed in one pass over its records.
import type { FileRecords } from '../model/index.ts';
import type { FileSummary } from './types.ts';
import { promptOf } from './prompt-text.ts';

type Obj = Record<string, unknown>;

export function msOf(v: unknown): number | null {
	if (typeof v !== 'string') return null;
	const ms = Date.parse(v);
	return Number.isFinite(ms) ? ms : null;
}

export function summarize(path: string, fr: FileRecords): FileSummary {
	const sessionIds = new Set<string>();
	const agentIds = new Set<string>();
	const spawned = new Set<string>();
	const uuids = new Set<string>();
	const parents: string[] = [];
	const s: FileSummary = {
		path,
		sessionIds: [],
		agentIds: [],
		spawnedAgentIds: [],
		uuids,
		externalParents: [],
		contentLines: 0,
		sidechainLines: 0,
		firstPrompt: null,
		customTitle: null,
		aiTitle: null,
		summaries: [],
		firstMs: null,
		lastMs: null,
		lines: fr.lines,
		bytes: fr.bytes
	};
	let firstSidechainPrompt: string | null = null;
	let firstCommand: string | null = null;
	for (const { value: r } of fr.records) {
		if (typeof r.sessionId === 'string') sessionIds.add(r.sessionId);
		if (typeof r.agentId === 'string') agentIds.add(r.agentId);
		const tur = r.toolUseResult;
		if (typeof tur === 'object' && tur !== null && typeof (tur as Obj).agentId === 'string') spawned.add((tur as Obj).agentId as string);
		if (typeof r.uuid === 'string') {
			uuids.add(r.uuid);
			s.contentLines++;
			if (r.isSidechain === true) s.sidechainLines++;
			if (typeof r.parentUuid === 'string') parents.push(r.parentUuid);
			if (typeof r.logicalParentUuid === 'string') parents.push(r.logicalParentUuid);
		}
		const ms = msOf(r.timestamp);
		if (ms !== null) {
			if (s.firstMs === null || ms < s.firstMs) s.firstMs = ms;
			if (s.lastMs === null || ms > s.lastMs) s.lastMs = ms;
		}
		titleFields(r, s);
		if (s.firstPrompt === null && r.type === 'user') {
			const p = promptOf(r);
			// A slash command or shell escape says little about a session: keep looking for prose.
			if (p !== null && isCommand(p)) firstCommand ??= p;
			else s.firstPrompt = p;
			if (firstSidechainPrompt === null) firstSidechainPrompt = promptOf(r, { allowSidechain: true });
		}
	}
	// A subagent file's prompt is a sidechain line; use it when the file has no main-line prompt.
	s.firstPrompt ??= firstCommand ?? firstSidechainPrompt;
	s.sessionIds = [...sessionIds];
	s.agentIds = [...agentIds];
	s.spawnedAgentIds = [...spawned];
	s.externalParents = [...new Set(parents.filter((p) => !uuids.has(p)))];
	return s;
}

/** Title-bearing records (custom-title, ai-title, summary) into s; shared with the head/tail scan. */
export function titleFields(r: Obj, s: Pick<FileSummary, 'customTitle' | 'aiTitle' | 'summaries'>): void {
	const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
	if (r.type === 'custom-title') s.customTitle = str(r.customTitle) ?? str(r.title) ?? s.customTitle;
	else if (r.type === 'ai-title') s.aiTitle = str(r.aiTitle) ?? str(r.title) ?? s.aiTitle;
	else if (r.type === 'summary') {
		const text = str(r.summary);
		if (text) s.summaries.push({ leafUuid: str(r.leafUuid), summary: text });
	}
}

const isCommand = (p: string) => p.startsWith('/') || p.startsWith('! ');
