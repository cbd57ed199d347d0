// The cost of one rewound branch (model/branches.ts), for the chat's fold "Rewound here — …, $X".
// Kept apart from the session's accounting (accounting.ts), which decides on its own how a
// session's usage counts rewound calls: this is only what the calls behind one fold cost.
import type { Atom } from '../../model/types.ts';
import { formatUsd } from './format.ts';
import { collectCalls } from './messages.ts';
import { callCost } from './prices.ts';

/** What a branch's API calls cost: the priced sum, how many calls, how many had no price. */
export interface BranchCost {
	usd: number;
	calls: number;
	unpriced: number;
}

/** The cost of the calls among `atoms` (each API message once, as the usage panel counts it). */
export function branchCost(atoms: readonly Atom[]): BranchCost {
	const out: BranchCost = { usd: 0, calls: 0, unpriced: 0 };
	for (const c of collectCalls(atoms)) {
		out.calls++;
		const usd = callCost(c.model, c.ms, c);
		if (usd === null) out.unpriced++;
		else out.usd += usd;
	}
	return out;
}

/** "$0.04"; "≥ $0.04" when some calls had no price; "unpriced" when none had; null without calls. Never a $0 it cannot know. */
export function branchCostLabel(c: BranchCost): string | null {
	if (!c.calls) return null;
	if (c.unpriced === c.calls) return 'unpriced';
	return c.unpriced ? `≥ ${formatUsd(c.usd)}` : formatUsd(c.usd);
}

/** Two costs added (a branch and the branches nested in it). */
export function addBranchCost(a: BranchCost, b: BranchCost): BranchCost {
	return { usd: a.usd + b.usd, calls: a.calls + b.calls, unpriced: a.unpriced + b.unpriced };
}
