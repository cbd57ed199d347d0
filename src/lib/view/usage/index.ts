// Usage, cost and context: API calls out of atoms (messages.ts), prices (prices.ts, the bundled
// table prices.data.json), a session's accounting and chart series (accounting.ts), a project's
// (project.ts), and how figures are written (format.ts). Pure data; the worker calls it.
export * from './types.ts';
export { collectCalls, tokensOf, contextOf, totalOf, callKey, zeroTokens, type ApiCall, type Tokens } from './messages.ts';
export { callCost, findModel, contextWindowOf, PRICES, type PriceTable } from './prices.ts';
export { sessionUsage, addTally, zeroTally, thinPeaks, type UsageSource, type UsageOptions } from './accounting.ts';
export { projectUsage, summarizeSession, type ProjectSessionInput } from './project.ts';
export { formatUsd, formatTokens, costLabel } from './format.ts';
export { branchCost, branchCostLabel, addBranchCost, type BranchCost } from './branch.ts';
