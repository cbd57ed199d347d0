// The chat's live edge while a session is followed: at the bottom the view follows new rows,
// scrolled up it stays put and counts what arrived ("N new — jump to live"). ChatList owns the
// scrolling; this class decides when to stick to the bottom.
import { tick } from 'svelte';

/** How close to the bottom counts as "at the live edge", px. */
const STICK_SLACK = 24;

export class LiveEdge {
	/** Following the bottom edge. */
	stick = $state(true);
	/** Rows that arrived while scrolled up. */
	newRows = $state(0);
	#lastScrollTop = 0;
	#lastScrollHeight = 0;
	#lastClientHeight = 0;
	#seenLength = -1;
	readonly #toBottom: () => void;

	constructor(toBottom: () => void) {
		this.#toBottom = toBottom;
	}

	/** After every scroll event of the viewport. */
	scrolled(viewport: HTMLElement, live: boolean): void {
		if (live) {
			// Only scrolling up leaves the live edge: a resize or rows landing between a scroll
			// and its event (the timeline loading above the chat) do not. Such a change moves the
			// scroll position too (the browser clamps it when the viewport grows), so a move up
			// counts as the reader's only when the viewport and the content kept their sizes.
			const atEdge = viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - STICK_SLACK;
			const relaid = viewport.scrollHeight !== this.#lastScrollHeight || viewport.clientHeight !== this.#lastClientHeight;
			if (atEdge) this.stick = true;
			else if (relaid) {
				if (this.stick) void tick().then(this.#toBottom);
			} else if (viewport.scrollTop < this.#lastScrollTop - 1) this.stick = false;
			if (this.stick) this.newRows = 0;
		}
		this.#lastScrollTop = viewport.scrollTop;
		this.#lastScrollHeight = viewport.scrollHeight;
		this.#lastClientHeight = viewport.clientHeight;
	}

	/** The reader asked for the live edge. */
	jump(): void {
		this.stick = true;
		this.newRows = 0;
		this.#toBottom();
		void tick().then(this.#toBottom);
	}

	/** The followed index now has n rows: stick to the bottom, or count the new ones. */
	indexLength(n: number): void {
		const before = this.#seenLength;
		this.#seenLength = n;
		if (before < 0) {
			void tick().then(this.#toBottom);
			return;
		}
		if (this.stick) void tick().then(this.#toBottom);
		else if (n > before) this.newRows += n - before;
	}
}
