// Authors (reference §2.1 step 1, §2.6): the context deriveAuthor (text.ts) reads to say who
// wrote a user atom. It holds the postal index — message id → sender anchor sid, from the postal
// log; the first row with both fields wins — and the sdkHuman option. Every postal row is
// accounted as metadata here.
import type { AuthorContext } from './text.ts';
import type { FileRecords } from './types.ts';
import type { Ctx } from './build-context.ts';

export function authorContext(ctx: Ctx, postalLog: FileRecords | null | undefined): AuthorContext {
	const postal = new Map<string, string>();
	if (postalLog) {
		for (const r of postalLog.records) {
			const v = r.value;
			const id = v.id;
			const from = v.from_id;
			if (typeof id === 'string' && id && typeof from === 'string' && from && !postal.has(id)) postal.set(id, from);
			ctx.metadata.push({ file: postalLog.file, line: r.line, type: 'postal', t: typeof v.t === 'number' ? v.t : null });
		}
	}
	return { postal, sdkHuman: !!ctx.opts.sdkHuman };
}
