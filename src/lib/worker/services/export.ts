// Exports and secret scanning: what redaction finds in a session's input files, the text or Blob
// of a download (view/export/), the files of a `#z=` share link; it keeps the last redacted copy
// (exports in several formats redact once). Reads built sessions through `SessionSource`.
import { exportFile, exportSessionText, redactSource, utf8Bytes, type ExportFormat, type ExportResult, type ExportSource, type OnExportProgress } from '../../view/export/index.ts';
import { DEFAULT_REDACT, describeRedaction, makeRedactor, redactFileText, scanFiles, type Finding, type RedactOptions } from '../../view/redact/index.ts';
import type { InputFile } from '../protocol.ts';
import type { SessionSource } from './types.ts';

export class Exports {
  #sessions: Pick<SessionSource, 'built'>;
  /** The last redacted copy of a session (exports in several formats redact once). */
  #redacted: { key: string; sig: string; origin: object; src: ExportSource } | null = null;

  constructor(sessions: Pick<SessionSource, 'built'>) {
    this.#sessions = sessions;
  }

  /** What redaction finds in one session's input files: each distinct string once, with where. */
  async scanSecrets(key: string, options: Partial<RedactOptions>, onProgress?: OnExportProgress): Promise<Finding[] | null> {
    const entry = await this.#sessions.built(key);
    if (!entry) return null;
    const files = await inputTexts(entry.loaded.inputs, onProgress);
    return scanFiles(files, makeRedactor(options));
  }

  /** The text of a download (Markdown, one-file HTML, Strap JSON); `options` null = not redacted. */
  async exportText(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress, branches = true): Promise<ExportResult | null> {
    const text = await this.#export(key, format, options, onProgress, branches);
    return text === null ? null : { text, bytes: utf8Bytes(text) };
  }

  /** A download made in the worker as a Blob, so the page never holds (or encodes) the text. */
  async exportBlob(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress, branches = true): Promise<{ blob: Blob; bytes: number } | null> {
    const text = await this.#export(key, format, options, onProgress, branches);
    if (text === null) return null;
    const blob = new Blob([text], { type: exportFile(format, '').mime });
    return { blob, bytes: blob.size };
  }

  /** `branches` false leaves the rewound branches out (view/export/session.ts withoutBranches). */
  async #export(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress, branches = true): Promise<string | null> {
    const entry = await this.#sessions.built(key);
    if (!entry) return null;
    const l = entry.loaded;
    const source: ExportSource = { key: l.key, title: l.title, startedAt: l.startedAt, endedAt: l.endedAt, session: l.result.session, children: l.children, metadata: l.result.metadata, rows: entry.rows };
    const redactor = options ? makeRedactor(options) : null;
    const sig = JSON.stringify(redactor?.options ?? null);
    if (this.#redacted?.key !== key || this.#redacted.sig !== sig || this.#redacted.origin !== l.result.session) {
      onProgress?.({ task: 'redact', done: 0, total: 1 });
      this.#redacted = { key, sig, origin: l.result.session, src: redactor ? redactSource(source, redactor) : source };
    }
    return exportSessionText(this.#redacted.src, format, { redactor: null, redaction: describeRedaction(redactor?.options ?? null), onProgress, branches });
  }

  /** The session's input files for a `#z=` link, redacted unless `options` is null. */
  async shareFiles(key: string, options: Partial<RedactOptions> | null): Promise<{ name: string; text: string }[] | null> {
    const entry = await this.#sessions.built(key);
    if (!entry) return null;
    const r = options ? makeRedactor({ ...DEFAULT_REDACT, ...options }) : null;
    return (await inputTexts(entry.loaded.inputs)).map((f) => ({ name: f.path, text: r ? redactFileText(f.text, r) : f.text }));
  }
}

async function inputTexts(inputs: InputFile[], onProgress?: OnExportProgress): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const f of inputs) {
    out.push({ path: f.path, text: await f.blob.text() });
    onProgress?.({ task: 'scan', done: out.length, total: inputs.length });
  }
  return out;
}
