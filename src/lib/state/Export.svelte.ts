// The share / export dialog's state: which purpose it was opened for (a `#z=` link or a
// download), the redaction choices (secrets on, home directory on, e-mail addresses and typed
// strings optional), the findings the worker's scan reports, which of them were unticked, and
// the export itself (made in the worker with progress, then downloaded or copied). Redaction is
// on for every path out of the page unless the person switches it off here.
import type { ExportFormat, ExportProgress, Finding } from '../worker/protocol.ts';
import { exportFile } from '../view/export/files.ts';
import { DEFAULT_REDACT, type RedactOptions } from '../view/redact/rules.ts';
import { engineClient, proxied } from './engine-client.ts';
import type { Share } from './Share.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

export type DialogPurpose = 'share' | 'export';

export class ExportUi {
	open = $state(false);
	purpose = $state<DialogPurpose>('export');
	format = $state<ExportFormat>('markdown');
	secrets = $state(DEFAULT_REDACT.secrets);
	home = $state(DEFAULT_REDACT.home);
	emails = $state(DEFAULT_REDACT.emails);
	/** Typed strings, one per line. */
	literals = $state('');
	/** Include rewound branches (a marked section at each rewind point; a fork in Strap). */
	branches = $state(true);
	findings = $state.raw<Finding[]>([]);
	/** Finding ids the person unticked (kept as recorded). */
	unticked = $state.raw<ReadonlySet<string>>(new Set());
	scanning = $state(false);
	busy = $state(false);
	progress = $state.raw<ExportProgress | null>(null);
	/** One line: what the last action did (size of the export, copied, failed). */
	message = $state<string | null>(null);
	#viewer: Viewer;
	#share: Share;
	#atom: () => string | null;
	#scanSeq = 0;

	constructor(viewer: Viewer, share: Share, landedAtom: () => string | null) {
		this.#viewer = viewer;
		this.#share = share;
		this.#atom = landedAtom;
	}

	/** The redaction the person chose; null when every rule is off (nothing redacted). */
	get options(): RedactOptions | null {
		const literals = this.literals.split('\n').map((l) => l.trim()).filter(Boolean);
		if (!this.secrets && !this.home && !this.emails && !literals.length) return null;
		return { secrets: this.secrets, home: this.home, emails: this.emails, literals, keep: [...this.unticked] };
	}

	async show(purpose: DialogPurpose): Promise<void> {
		this.purpose = purpose;
		this.open = true;
		this.message = null;
		this.#share.tooLarge = false;
		await this.rescan();
	}

	close(): void {
		this.open = false;
		this.progress = null;
	}

	/** Scans the open session with the current rules (findings keep their ticks by id). */
	async rescan(): Promise<void> {
		const key = this.#viewer.currentKey;
		const opts = this.options;
		const seq = ++this.#scanSeq;
		if (!key || !opts) {
			this.findings = [];
			return;
		}
		this.scanning = true;
		try {
			const { api, inWorker } = await engineClient();
			const found = await api.scanSecrets(key, { ...opts, keep: [] }, proxied((p: ExportProgress) => (this.progress = p), inWorker));
			if (seq === this.#scanSeq) this.findings = found ?? [];
		} finally {
			if (seq === this.#scanSeq) {
				this.scanning = false;
				this.progress = null;
			}
		}
	}

	toggle(id: string): void {
		const next = new Set(this.unticked);
		if (next.has(id)) next.delete(id);
		else next.add(id);
		this.unticked = next;
	}

	/**
	 * The export for `format` with the given redaction (the download's exact bytes). It crosses
	 * from the worker as a Blob: a structured-cloned 50 MB string would stall this thread.
	 */
	async blob(format: ExportFormat, options: RedactOptions | null, branches = this.branches): Promise<{ blob: Blob; bytes: number } | null> {
		const key = this.#viewer.currentKey;
		if (!key) return null;
		const { api, inWorker } = await engineClient();
		return api.exportBlob(key, format, options, proxied((p: ExportProgress) => (this.progress = p), inWorker), branches);
	}

	/** The export as text (clipboard, automation): the same bytes as the download. */
	async text(format: ExportFormat, options: RedactOptions | null, branches = this.branches): Promise<{ text: string; bytes: number } | null> {
		const out = await this.blob(format, options, branches);
		return out && { text: await out.blob.text(), bytes: out.bytes };
	}

	async download(format: ExportFormat = this.format): Promise<void> {
		await this.#run(async () => {
			// The worker hands over a Blob: a 50 MB export never becomes a string on this thread.
			const out = await this.blob(format, this.options);
			if (!out) return;
			const { name } = exportFile(format, this.#viewer.current?.meta.title ?? 'session');
			const url = URL.createObjectURL(out.blob);
			const a = document.createElement('a');
			a.href = url;
			a.download = name;
			a.rel = 'noopener';
			document.body.append(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60_000);
			this.message = `Saved ${name} (${formatBytes(out.bytes)}).`;
		});
	}

	async copyText(format: ExportFormat = this.format): Promise<void> {
		await this.#run(async () => {
			const out = await this.text(format, this.options);
			if (!out) return;
			try {
				await navigator.clipboard.writeText(out.text);
				this.message = `Copied ${formatBytes(out.bytes)} to the clipboard.`;
			} catch {
				this.message = 'The clipboard is not available here; use Download instead.';
			}
		});
	}

	/** "Copy link" with the dialog's redaction; too large → the dialog offers the HTML file. */
	async copyLink(): Promise<void> {
		await this.#run(async () => {
			await this.#share.copy(this.#atom(), this.options);
			this.message = this.#share.message;
			if (!this.#share.tooLarge && this.#share.link) this.close();
		});
	}

	async #run(fn: () => Promise<void>): Promise<void> {
		this.busy = true;
		this.message = null;
		try {
			await fn();
		} catch (e) {
			this.message = `Could not export: ${e instanceof Error ? e.message : String(e)}`;
		} finally {
			this.busy = false;
			this.progress = null;
		}
	}
}

export function formatBytes(n: number): string {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
