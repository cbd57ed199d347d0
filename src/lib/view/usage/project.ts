// Project usage: the loaded sessions side by side (by cost, by day) and their sum. The project
// total is the sum of the session totals, nothing recounted, so the two always agree.
import { addTally, zeroTally } from './accounting.ts';
import type { ModelUsage, ProjectUsage, SessionUsage, SessionUsageSummary, ToolStat } from './types.ts';

export interface ProjectSessionInput {
	key: string;
	title: string;
	startedAt: number | null;
	usage: SessionUsage;
}

export function summarizeSession(s: ProjectSessionInput): SessionUsageSummary {
	return { key: s.key, title: s.title, startedAt: s.startedAt, total: s.usage.total, segments: s.usage.segments, days: s.usage.days };
}

export function projectUsage(sessions: ProjectSessionInput[], priceSourceDate: string): ProjectUsage {
	const total = zeroTally();
	const models: Record<string, ModelUsage> = {};
	const days = new Map<string, { day: string; costUsd: number; tokens: number }>();
	const tools = new Map<string, ToolStat>();
	const wall = { workedMs: 0, idleMs: 0 };
	let turns = 0;
	for (const s of sessions) {
		addTally(total, s.usage.total);
		turns += s.usage.turns.length;
		wall.workedMs += s.usage.wall.workedMs;
		wall.idleMs += s.usage.wall.idleMs;
		for (const t of s.usage.tools) {
			const into = tools.get(t.name);
			if (!into) tools.set(t.name, { ...t });
			else {
				into.calls += t.calls;
				into.errors += t.errors;
				into.wallMs += t.wallMs;
				into.costUsd += t.costUsd;
			}
		}
		for (const [name, m] of Object.entries(s.usage.models)) {
			const into = (models[name] ??= { ...zeroTally(), priced: m.priced, name: m.name, contextWindow: m.contextWindow });
			addTally(into, m);
		}
		for (const [day, d] of Object.entries(s.usage.days)) {
			const into = days.get(day) ?? { day, costUsd: 0, tokens: 0 };
			into.costUsd += d.costUsd;
			into.tokens += d.tokens;
			days.set(day, into);
		}
	}
	return {
		priceSourceDate,
		total,
		models,
		sessions: sessions.map(summarizeSession).sort((a, b) => b.total.costUsd - a.total.costUsd || a.key.localeCompare(b.key)),
		days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
		tools: [...tools.values()].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
		turns,
		wall
	};
}
