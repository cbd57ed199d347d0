// Following a project folder while Claude Code writes to it (File System Access API), the
// browser part: the folder handle (picked, dropped, or kept in IndexedDB for "Resume following"),
// a poll about once a second of every file's size and time (and at once when a FileSystemObserver,
// where the browser has one, reports a change), and reads of ONLY the new bytes (file.slice(offset),
// read asynchronously and transferred, not copied, to the engine's followAppend). What to read
// is decided by ingest/follow.ts; the sessions are kept by ingest/live.ts in the worker. Each
// poll also asks the engine what the open session is doing (the status line) and whether its
// open turn went quiet. html[data-live] is "on" while following.
import { headBytes, headChanged, planFollow, replacedNotice, type FileStat, type FollowStep, type Tracked } from '../ingest/follow.ts';
import { liveStatus, isQuiet, QUIET_AFTER_MS, type LiveStatus } from '../view/chat/live-status.ts';
import { forgetFollowed, loadFollowed, saveFollowed } from '../store/follow-handles.ts';
import type { FollowChange, LiveState } from '../worker/protocol.ts';
import * as Comlink from 'comlink';
import { engineClient } from './engine-client.ts';
import type { Viewer } from './Viewer.svelte.ts';
import { canPickDirectory, pickDirectory, walkHandle, type DirHandle } from './drop.ts';

export const UNSUPPORTED = 'This browser cannot follow a folder (it has no File System Access API; Chromium-based browsers do); opening or dropping files still works.';

/** One poll a second, as the issue asks; a slow poll (a big first read) simply delays the next. */
const POLL_MS = 1000;
/** Bytes per read: a file that changes mid-read keeps what was read before it went stale. */
const READ_CHUNK = 8 * 1024 * 1024;
/** Folders never holding transcripts, skipped when walking (a project folder has none, a home folder may). */
const SKIP_DIRS = new Set(['node_modules', '.git']);

export class Live {
	/** Mirrors html[data-live]. */
	on = $state(false);
	/** The followed folder's name. */
	folder = $state<string | null>(null);
	/** A folder kept from an earlier visit, offered as "Resume following". */
	resumable = $state<string | null>(null);
	/** One sentence: unsupported browser, a permission refused, a file re-read. */
	notice = $state<string | null>(null);
	/** The open session's status line while following. */
	status = $state.raw<LiveStatus | null>(null);
	/** The session most recently written to (marked in the session list). */
	activeKey = $state<string | null>(null);
	/** Main-thread time of the last update (apply + index refresh), ms, for the benchmark. */
	lastUpdateMs = $state(0);
	/** Updates applied since following started. */
	updates = $state(0);
	/** Silence after which an open turn without a state log reads "quiet" (tests shorten it). */
	quietAfterMs = QUIET_AFTER_MS;

	readonly supported: boolean;
	#viewer: Viewer;
	#dir: DirHandle | null = null;
	#tracked = new Map<string, Tracked>();
	#generation = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#busy = false;
	#again = false;
	#observer: { disconnect(): void } | null = null;
	/** performance.now() at the start of the poll that applied the last update (benchmark). */
	lastPollAt = 0;
	#dropped = $state.raw<DirHandle | null>(null);

	constructor(viewer: Viewer) {
		this.#viewer = viewer;
		this.supported = canPickDirectory();
	}

	/** Looks for a folder kept from an earlier visit. */
	async checkResume(): Promise<void> {
		if (!this.supported) return;
		const h = (await loadFollowed()) as unknown as DirHandle | null;
		this.resumable = h?.name ?? null;
	}

	/** "Follow a folder": the picker, then following. */
	async follow(): Promise<void> {
		if (!this.supported) {
			this.notice = UNSUPPORTED;
			return;
		}
		let dir: DirHandle | null;
		try {
			dir = await pickDirectory('loupe-follow');
		} catch (e) {
			this.notice = `Could not open that folder: ${e instanceof Error ? e.message : String(e)}`;
			return;
		}
		if (dir) await this.start(dir);
	}

	/** Keeps the handle of a folder dropped on the page (drop.ts takeDrop's `folder`). */
	noteDrop(folder: Promise<DirHandle | null>): void {
		this.#dropped = null;
		if (!this.supported) return;
		void folder.then(
			(h) => (this.#dropped = h),
			() => undefined
		);
	}

	/** Whether the last drop was a folder that can be followed. */
	get canFollowDropped(): boolean {
		return this.#dropped !== null;
	}

	async followDropped(): Promise<void> {
		if (this.#dropped) await this.start(this.#dropped);
	}

	/** Resumes the folder kept in IndexedDB; the browser asks for read permission again. */
	async resume(): Promise<void> {
		const dir = (await loadFollowed()) as unknown as DirHandle | null;
		if (!dir) {
			this.resumable = null;
			return;
		}
		const state = (await dir.queryPermission?.({ mode: 'read' })) ?? 'granted';
		const ok = state === 'granted' || (await dir.requestPermission?.({ mode: 'read' })) === 'granted';
		if (!ok) {
			this.notice = `Loupe was not allowed to read ${dir.name} again; pick it with “Follow a folder”.`;
			return;
		}
		await this.start(dir);
	}

	async start(dir: DirHandle): Promise<void> {
		this.stop();
		const generation = ++this.#generation;
		this.#dir = dir;
		this.#tracked = new Map();
		this.folder = dir.name;
		this.resumable = null;
		this.notice = null;
		this.updates = 0;
		this.#setOn(true);
		void saveFollowed(dir as unknown as FileSystemDirectoryHandle);
		const { api } = await engineClient();
		await api.followStart(generation);
		this.#observe(dir, generation);
		await this.#poll(generation);
	}

	/** Polls at once when the browser reports a change (FileSystemObserver, where it exists). */
	#observe(dir: DirHandle, generation: number): void {
		const Observer = (globalThis as unknown as { FileSystemObserver?: new (cb: () => void) => { observe(h: DirHandle, o: { recursive: boolean }): Promise<void>; disconnect(): void } }).FileSystemObserver;
		if (!Observer) return;
		try {
			const o = new Observer(() => this.#wake(generation));
			o.observe(dir, { recursive: true }).catch(() => o.disconnect());
			this.#observer = o;
		} catch {
			// The poll alone keeps following.
		}
	}

	#wake(generation: number): void {
		if (generation !== this.#generation) return;
		if (this.#busy) this.#again = true;
		else this.#schedule(generation, 0);
	}

	#schedule(generation: number, ms: number): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = setTimeout(() => void this.#poll(generation), ms);
	}

	stop(): void {
		this.#generation++;
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		this.#observer?.disconnect();
		this.#observer = null;
		if (this.on) void engineClient().then(({ api }) => api.followStop());
		this.#dir = null;
		this.status = null;
		this.activeKey = null;
		this.#setOn(false);
	}

	/** Stops and forgets the kept folder (no resume offered next time). */
	async forget(): Promise<void> {
		this.stop();
		this.resumable = null;
		await forgetFollowed();
	}

	async #poll(generation: number): Promise<void> {
		const current = () => generation === this.#generation;
		if (this.#busy) return;
		this.#busy = true;
		this.#again = false;
		const startedAt = performance.now();
		try {
			const dir = this.#dir;
			if (!dir) return;
			const files = await listFiles(dir);
			if (!current()) return;
			const stats: FileStat[] = [];
			const byPath = new Map<string, File>();
			for (const [path, file] of files) {
				byPath.set(path, file);
				stats.push({ path, size: file.size, mtime: file.lastModified });
			}
			const steps = planFollow(this.#tracked, stats);
			const changes = await this.#read(steps, byPath);
			if (!current()) return;
			const { api } = await engineClient();
			if (changes.length) {
				const outcome = await api.followAppend(generation, Comlink.transfer(changes, changes.map((c) => c.bytes.buffer as ArrayBuffer)));
				if (!current() || !outcome) return;
				const t0 = performance.now();
				await this.#viewer.applyLive(api, outcome);
				this.lastUpdateMs = performance.now() - t0;
				this.lastPollAt = startedAt;
				this.updates++;
				this.activeKey = outcome.active;
			}
			await this.#tick(api, generation);
		} catch (e) {
			if (current()) this.notice = `Following stopped reading for a moment: ${e instanceof Error ? e.message : String(e)}`;
		} finally {
			this.#busy = false;
			if (current()) this.#schedule(generation, this.#again ? 0 : POLL_MS);
		}
	}

	/** Turns the plan into reads: appended slices, or whole files (with the head check for replaced
	 *  files). A File goes stale when its file changes after getFile() (Chromium then refuses to
	 *  read it), so bytes are read here and a file whose read failed is simply read next poll. */
	async #read(steps: FollowStep[], files: Map<string, File>): Promise<FollowChange[]> {
		const out: FollowChange[] = [];
		const notices: string[] = [];
		for (const s of steps) {
			if (s.kind === 'gone') {
				this.#tracked.delete(s.path);
				out.push({ path: s.path, bytes: new Uint8Array(0), gone: true });
				continue;
			}
			const file = files.get(s.path);
			if (!file) continue;
			try {
				const known = this.#tracked.get(s.path);
				let reset = s.kind === 'reread';
				let notice = s.kind === 'reread' ? s.notice : null;
				if ((s.kind === 'append' || s.kind === 'check') && known) {
					const head = await bytesOf(file, 0, headBytes(known.size));
					if (headChanged(known.head, head)) {
						reset = true;
						notice = replacedNotice(s.path);
					} else if (s.kind === 'check') {
						known.mtime = file.lastModified;
						continue;
					}
				}
				const from = reset || !known ? 0 : known.size;
				// Up to the size seen now (later bytes are the next poll's), in pieces: a big file that
				// keeps growing goes stale mid-read, and what was read by then is kept.
				const parts: Uint8Array[] = [];
				let at = from;
				try {
					while (at < file.size) {
						const end = Math.min(file.size, at + READ_CHUNK);
						parts.push(await bytesOf(file, at, end));
						at = end;
					}
				} catch {
					// Stale: the rest next poll.
				}
				if (at === from && file.size > from) continue;
				let head = known && !reset ? known.head : new Uint8Array(0);
				if (from === 0 && parts.length) head = parts[0].slice(0, headBytes(at));
				else if (head.length < headBytes(at)) head = await bytesOf(file, 0, headBytes(at)).catch(() => head);
				this.#tracked.set(s.path, { size: at, mtime: file.lastModified, head });
				if (!parts.length) parts.push(new Uint8Array(0));
				parts.forEach((bytes, i) => out.push({ path: s.path, bytes, ...(reset && i === 0 ? { reset: true } : {}) }));
				if (notice) notices.push(notice);
			} catch {
				// Changed while being compared: the next poll looks again.
			}
		}
		if (notices.length) this.notice = notices.join(' ');
		return out;
	}

	/** The status line of the open session, and the quiet flip that settles its open turn. */
	async #tick(api: Awaited<ReturnType<typeof engineClient>>['api'], generation: number): Promise<void> {
		const key = this.#viewer.currentKey;
		if (!key) return;
		const peek: LiveState | null = await api.liveState(key, null);
		if (!peek || generation !== this.#generation) return;
		const now = Date.now();
		const quiet = isQuiet(peek.activity, peek.lastWriteMs, peek.lastState !== null, now, this.quietAfterMs);
		const state = await api.liveState(key, quiet);
		if (!state || generation !== this.#generation) return;
		if (state.rebuilt) await this.#viewer.refreshChat(api);
		this.status = liveStatus(state.activity, state.lastWriteMs, state.lastState, now, this.quietAfterMs);
	}

	#setOn(on: boolean): void {
		this.on = on;
		if (typeof document !== 'undefined') {
			if (on) document.documentElement.dataset.live = 'on';
			else delete document.documentElement.dataset.live;
		}
	}
}

async function bytesOf(file: File, from: number, to: number): Promise<Uint8Array> {
	return new Uint8Array(await file.slice(from, to).arrayBuffer());
}

/** Every transcript-like file under the folder, by path relative to the folder's parent (as a dropped folder names them). */
async function listFiles(dir: DirHandle): Promise<[string, File][]> {
	const { files, unreadable } = await walkHandle(dir, { skipDir: (name) => SKIP_DIRS.has(name), keepFile: (name) => /\.(jsonl|json)$/i.test(name) });
	// A file that could not be listed is not gone: this poll is given up and the next looks again.
	if (unreadable.length) throw new Error(`could not read ${unreadable[0]}`);
	return files.map((f) => [f.path, f.blob as File]);
}
