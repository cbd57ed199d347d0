// The timeline marks each rewind point (model D11): a 'rewind' marker at the time the abandoned
// branch began, with the chat fold's words, drawn as its own small shape (not as a compaction).
import { describe, expect, it } from 'vitest';
import { layoutTimeline } from '$lib/view/timeline/index.ts';
import { branchLabelOf } from '$lib/view/chat/branches.ts';
import { fixtureSession } from '$lib/view/chat/test-fixtures.ts';
import { drawModel, fullView, geometryOf, METRICS } from './geometry.ts';

describe('rewind markers', () => {
	it('one marker per top-level branch, at its start, with the fold label; drawn apart from compactions', () => {
		const session = fixtureSession('rewind-nested');
		const layout = layoutTimeline([{ key: 's', label: 'S', session }]);
		const rewinds = layout.markers.filter((m) => m.kind === 'rewind');
		expect(rewinds.map((m) => [m.uuid, m.t, m.label])).toEqual(session.branches!.map((b) => [b.rootUuid, b.t * 1000, branchLabelOf(b)]));
		expect(rewinds[0].label).toMatch(/^Rewound here — 6 messages, 2 tool calls, \$/);
		const draw = drawModel(layout, geometryOf(layout), fullView(layout), 800, METRICS);
		expect(draw.rewinds.map((r) => r.uuid)).toEqual(['u2', 'u7']);
		expect(draw.rewinds[0].x).toBeLessThan(draw.rewinds[1].x);
		expect(draw.markers).toBe('');
	});

	it('a session without rewinds has no rewind marker', () => {
		const layout = layoutTimeline([{ key: 's', label: 'S', session: fixtureSession('rewind', (v) => v.uuid === 'u3' && (v.parentUuid = 'a3')) }]);
		expect(layout.markers.filter((m) => m.kind === 'rewind')).toEqual([]);
	});
});
