// The timeline layout's data: lanes, bars, dots, sub-bars, idle spans and markers on one axis.
// Plain, structured-cloneable objects: the worker makes them (layout.ts), the page draws them.
import type { Session } from '../../model/index.ts';
import type { AxisOptions, TimelineAxis } from './axis.ts';

export type AuthorClass = 'human' | 'sdk' | 'peer' | 'romp' | 'teammate' | 'system' | 'none';
export type TargetKind = 'reply' | 'work' | 'trigger' | 'anchor';

/** What the layout needs of a subagent transcript (ingest's ChildTranscript fits this shape). */
export interface ChildActivity {
	agentType?: string | null;
	description?: string | null;
	result: { session: Session };
}

export interface LaneInput {
	key: string;
	label: string;
	session: Session;
	/** Subagent transcripts keyed by the Task / Agent tool_use id. */
	children?: Record<string, ChildActivity>;
}

export type LayoutOptions = AxisOptions;

export interface TimelineLane {
	key: string;
	label: string;
	index: number;
	/** First / last activity on the lane (ms), null when it has none. */
	t0: number | null;
	t1: number | null;
	/** Range [barStart, barEnd) of this lane's bars in layout.bars (sorted by t0). */
	barStart: number;
	barEnd: number;
}

export interface TimelineBar {
	/** Index in layout.bars (unique; segment ids can repeat, see conformance README). */
	index: number;
	segmentId: string;
	turnId: string;
	laneKey: string;
	lane: number;
	t0: number;
	t1: number;
	/** Idle spans inside [t0, t1] (state-log idle atoms of this segment), drawn as holes. */
	gaps: [number, number][];
	target: string | null;
	targetKind: TargetKind | null;
	replyUuid: string | null;
	workUuid: string | null;
	triggerUuid: string | null;
	author: AuthorClass;
	gist: string;
	/** Non-idle atoms in the segment. */
	atoms: number;
	compaction: boolean;
}

export interface TimelineDot {
	bar: number;
	segmentId: string;
	laneKey: string;
	lane: number;
	t: number;
	triggerUuid: string;
	author: AuthorClass;
	/** romp auto-nudge. */
	auto: boolean;
	/** Slash command name ("/usage") when the input is a command atom. */
	command: string | null;
	absorbed: boolean;
	gist: string;
}

export interface TimelineSubBar {
	bar: number;
	laneKey: string;
	lane: number;
	toolUseId: string;
	t0: number;
	t1: number;
	label: string;
	callUuid: string | null;
	resultUuid: string | null;
	/** false when neither a result nor a child transcript ends it (drawn to the bar's end). */
	finished: boolean;
}

export interface TimelineIdle {
	laneKey: string;
	lane: number;
	t0: number;
	t1: number;
}

export interface TimelineMarker {
	/** a compaction boundary, or a rewind point (model D11: a branch left the path here) */
	kind: 'compaction' | 'rewind';
	laneKey: string;
	lane: number;
	t: number;
	uuid: string | null;
	trigger: string | null;
	preTokens: number | null;
	/** rewind markers: the fold's words, "Rewound here — 3 messages, 2 tool calls, $0.41" */
	label?: string;
}

export interface TimelineLayout {
	lanes: TimelineLane[];
	bars: TimelineBar[];
	dots: TimelineDot[];
	subBars: TimelineSubBar[];
	idle: TimelineIdle[];
	markers: TimelineMarker[];
	axis: TimelineAxis;
	/** Segments left out because their session records no times (never placed at invented times). */
	untimed?: number;
}
