// Searchable text kept for sessions that are not loaded (the "everything cached" scope parses
// them on a query's way through): the most recently parsed ones, within a budget of characters,
// so the next keystroke does not parse them again and a long history cannot exhaust memory.
import type { SearchField } from './fields.ts';
import type { FoldedTexts } from './scan.ts';

export interface SessionText {
	fields: SearchField[];
	folded: FoldedTexts;
	chars: number;
}

export function textChars(fields: readonly SearchField[]): number {
	let n = 0;
	for (const f of fields) n += f.text.length;
	return n;
}

export class SessionTextCache {
	#entries = new Map<string, SessionText>();
	#chars = 0;
	readonly maxChars: number;
	#onEvict: ((key: string) => void) | undefined;

	/** `onEvict` hears of each key dropped for the budget (a search pool routes by what is kept). */
	constructor(maxChars: number, onEvict?: (key: string) => void) {
		this.maxChars = maxChars;
		this.#onEvict = onEvict;
	}

	get(key: string): SessionText | undefined {
		return this.#entries.get(key);
	}

	/** Keeps a session's fields, dropping the oldest others past the budget. */
	set(key: string, fields: SearchField[]): SessionText {
		this.#drop(key);
		const entry = { fields, folded: [], chars: textChars(fields) };
		this.#entries.set(key, entry);
		this.#chars += entry.chars;
		for (const k of this.#entries.keys()) {
			if (this.#chars <= this.maxChars || k === key) break;
			this.#drop(k);
			this.#onEvict?.(k);
		}
		return entry;
	}

	/** Forgets every session (no evictions reported: nothing is kept anywhere). */
	clear(): void {
		this.#entries.clear();
		this.#chars = 0;
	}

	get chars(): number {
		return this.#chars;
	}

	#drop(key: string): void {
		const old = this.#entries.get(key);
		if (!old) return;
		this.#entries.delete(key);
		this.#chars -= old.chars;
	}
}
