// Public surface of the timeline projection: layout (plain data), the broken axis and its
// mapping, the prompt gist, and the synthetic input the benchmark uses.
export * from './layout.ts';
export * from './axis.ts';
export * from './gist.ts';
export { syntheticLayoutInput, type SyntheticOptions } from './synthetic.ts';
export { withSubagentLanes, subagentLaneKey } from './subagent-lanes.ts';
