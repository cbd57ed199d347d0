// The only way a remote tree is read: GET and HEAD to the allowed origins, at most 6 requests at
// once, cancellable, every failure one sentence; and RemoteFile, a Blob look-alike over a URL
// whose slices are Range requests, so the scan and the loaders read it as they read a dropped
// File. Made here, in the worker (a RemoteFile cannot cross to the page: it holds this Http).

/** A failure to show as it is: one sentence naming the host or the file. */
export class RemoteError extends Error {}

/** Bytes of a remote file's head and tail a scan reads first. */
export const REMOTE_SCAN_HEAD = 8 * 1024;
export const REMOTE_SCAN_TAIL = 4 * 1024;

/** Requests in flight at once, as a browser's own per-host limit. */
export const MAX_IN_FLIGHT = 6;

export interface HttpOptions {
	/** Origins requests may go to; anything else is refused before it is sent. */
	origins: string[];
	signal: AbortSignal;
	fetch?: typeof fetch;
}

export class Http {
	/** Body bytes received and requests sent (the benchmark and the progress line read them). */
	bytes = 0;
	requests = 0;
	/** One-line notes of what was read differently (no Range support, …), each once. */
	readonly notes = new Set<string>();
	/** Files that answered with an error, URL → its sentence. */
	readonly failed = new Map<string, string>();
	readonly signal: AbortSignal;
	#origins: Set<string>;
	#fetch: typeof fetch;
	#active = 0;
	#queue: (() => void)[] = [];

	constructor(opts: HttpOptions) {
		this.#origins = new Set(opts.origins);
		this.signal = opts.signal;
		this.#fetch = opts.fetch ?? ((...a) => fetch(...a));
	}

	async #slot(): Promise<() => void> {
		if (this.#active >= MAX_IN_FLIGHT) await new Promise<void>((go) => this.#queue.push(go));
		this.#active++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#active--;
			this.#queue.shift()?.();
		};
	}

	/** A response whose body the caller reads before calling `done` (the request's slot). */
	async #send(url: string, init: { method?: 'GET' | 'HEAD'; range?: [number, number] } = {}): Promise<{ res: Response; done: () => void }> {
		const target = new URL(url);
		if (!this.#origins.has(target.origin)) throw new RemoteError(`Not read: ${target.href} is on another host than the address given.`);
		this.signal.throwIfAborted();
		const done = await this.#slot();
		try {
			this.signal.throwIfAborted();
			this.requests++;
			const headers: Record<string, string> = {};
			if (init.range) headers.Range = `bytes=${init.range[0]}-${init.range[1] - 1}`;
			let res: Response;
			try {
				// Redirects are not followed: a browser does not say where an opaque one goes, and
				// following it could send a request to another host.
				res = await this.#fetch(target.href, { method: init.method ?? 'GET', headers, mode: 'cors', credentials: 'omit', redirect: 'manual', signal: this.signal });
			} catch (e) {
				this.signal.throwIfAborted();
				throw new RemoteError(`${target.host} refused the request or does not allow cross-origin reads (CORS)${e instanceof Error && e.message && !/fetch/i.test(e.message) ? `: ${e.message}` : ''}.`);
			}
			if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && res.status !== 304)) {
				void res.body?.cancel().catch(() => undefined);
				const to = res.headers.get('location');
				const where = to ? ` to ${new URL(to, target).host === target.host ? new URL(to, target).pathname : `another host (${new URL(to, target).host})`}` : '';
				throw new RemoteError(`${decodeURIComponent(target.pathname)} redirected${where}; Loupe does not follow redirects.`);
			}
			return { res, done };
		} catch (e) {
			done();
			throw e;
		}
	}

	/** The whole body (or the range's bytes) of a GET, checked for an OK answer. */
	async get(url: string, range?: [number, number]): Promise<{ bytes: Uint8Array; res: Response }> {
		const { res, done } = await this.#send(url, { range });
		try {
			if (!res.ok) throw new RemoteError(statusLine(url, res));
			const bytes = new Uint8Array(await res.arrayBuffer());
			this.bytes += bytes.length;
			return { bytes, res };
		} finally {
			done();
		}
	}

	/** A GET's response as it comes, for the caller to judge (a listing's 404 is not always an error). */
	async fetchText(url: string): Promise<{ ok: boolean; status: number; text: string; res: Response }> {
		const { res, done } = await this.#send(url);
		try {
			const text = await res.text();
			this.bytes += text.length;
			return { ok: res.ok, status: res.status, text, res };
		} finally {
			done();
		}
	}

	/** A file's size and version from a HEAD request (for listings that give neither). */
	async head(url: string): Promise<{ size: number; version: string | null }> {
		const { res, done } = await this.#send(url, { method: 'HEAD' });
		done();
		if (!res.ok) throw new RemoteError(statusLine(url, res));
		const size = Number(res.headers.get('content-length'));
		if (!Number.isFinite(size) || res.headers.get('content-length') === null) throw new RemoteError(`${new URL(url).pathname}: the server did not say its size.`);
		return { size, version: res.headers.get('etag') ?? res.headers.get('last-modified') };
	}

	/** The body as a stream; its request's slot is held until the stream ends or is cancelled. */
	async stream(url: string): Promise<ReadableStream<Uint8Array>> {
		const { res, done } = await this.#send(url);
		if (!res.ok || !res.body) {
			done();
			throw new RemoteError(statusLine(url, res));
		}
		const reader = res.body.getReader();
		return new ReadableStream<Uint8Array>({
			pull: async (c) => {
				try {
					const { done: end, value } = await reader.read();
					if (end) {
						done();
						c.close();
					} else {
						this.bytes += value.length;
						c.enqueue(value);
					}
				} catch (e) {
					done();
					c.error(e);
				}
			},
			cancel: (why) => {
				done();
				return reader.cancel(why);
			}
		});
	}
}

function statusLine(url: string, res: Response): string {
	return `${decodeURIComponent(new URL(url).pathname)}: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`;
}

/** A remote file as the scan and loaders use a File: name, size, lastModified, slice, stream,
 *  text, arrayBuffer. A slice's bytes are one Range request; a host that answers a Range with the
 *  whole file is read whole (and a note says so). */
export class RemoteFile {
	readonly type = '';
	readonly size: number;
	/** What a scan reads first of its head and tail (ingest/scan.ts ScanReadHint): a local file's
	 *  32 + 16 KB were 12 % of a generated tree's bytes; a too-short read is read again larger. */
	readonly scanHead = REMOTE_SCAN_HEAD;
	readonly scanTail = REMOTE_SCAN_TAIL;

	constructor(
		readonly http: Http,
		readonly url: string,
		readonly name: string,
		/** The whole file's size. */
		readonly fileSize: number,
		readonly lastModified: number,
		readonly from = 0,
		to = fileSize
	) {
		this.size = Math.max(0, to - from);
	}

	slice(start = 0, end = this.size): RemoteFile {
		const clamp = (n: number) => Math.min(this.size, Math.max(0, n < 0 ? this.size + n : n));
		const a = clamp(start);
		const b = Math.max(a, clamp(end));
		return new RemoteFile(this.http, this.url, this.name, this.fileSize, this.lastModified, this.from + a, this.from + b);
	}

	get #whole(): boolean {
		return this.from === 0 && this.size === this.fileSize;
	}

	async arrayBuffer(): Promise<ArrayBuffer> {
		return (await this.bytes()).slice().buffer as ArrayBuffer;
	}

	async bytes(): Promise<Uint8Array> {
		if (!this.size) return new Uint8Array(0);
		const to = this.from + this.size;
		const { bytes, res } = await this.#recorded(this.http.get(this.url, this.#whole ? undefined : [this.from, to]));
		if (this.#whole || res.status === 206) return bytes;
		this.http.notes.add(`${new URL(this.url).host} does not answer Range requests, so whole files were read to list the sessions.`);
		return bytes.subarray(this.from, to);
	}

	async text(): Promise<string> {
		return new TextDecoder().decode(await this.bytes());
	}

	stream(): ReadableStream<Uint8Array> {
		if (this.#whole) {
			let inner: ReadableStreamDefaultReader<Uint8Array> | null = null;
			return new ReadableStream<Uint8Array>({
				pull: async (c) => {
					inner ??= (await this.#recorded(this.http.stream(this.url))).getReader();
					const { done, value } = await inner.read();
					if (done) c.close();
					else c.enqueue(value);
				},
				cancel: (why) => inner?.cancel(why)
			});
		}
		return new ReadableStream<Uint8Array>({
			pull: async (c) => {
				c.enqueue(await this.bytes());
				c.close();
			}
		});
	}

	/** A failed read is kept by path for the load's notes, then thrown as it came. */
	async #recorded<T>(p: Promise<T>): Promise<T> {
		try {
			return await p;
		} catch (e) {
			if (e instanceof RemoteError) this.http.failed.set(this.url, e.message);
			throw e;
		}
	}
}
