// What the emitting stages (emit.ts, emit-user.ts, absorbed.ts) share: the line table, graph,
// pre-pass results and the sink. Its own module so those stages import it one way.
import type { AuthorContext } from './text.ts';
import type { AtomSink } from './atom-sink.ts';
import type { Ctx, LineTable } from './build-context.ts';
import type { Graph } from './graph.ts';
import type { LineTexts } from './line-table.ts';
import type { PrePasses } from './pre-passes.ts';

/** What the emitting stages read: the line table, graph, pre-pass results, and the sink. */
export interface EmitEnv {
	ctx: Ctx;
	table: LineTable;
	graph: Graph;
	pre: PrePasses;
	texts: LineTexts;
	authors: AuthorContext;
	sink: AtomSink;
}
