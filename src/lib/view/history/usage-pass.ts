// The usage pass: what the whole history cost, ahead of the full index. Every listed session not
// stored yet is read once on the history lanes for its billed calls only (lane.ts `usageOnly`: a
// Claude Code session's transcripts are searched for their usage lines, nothing is built), so
// history usage is complete in about the time the files take to read; the index then builds each
// session behind it, and its entry's calls (the same, by calls.ts's one rule) replace these.
// A big local drop's scan has read most of them already (file-pass.ts): such a session's calls
// are merged from its files' (fromFiles), and only the rest go to the lanes.
// This holds the pass's results and its clock; the history service runs it.
import type { SessionCalls, HistoryResult } from './lane.ts';
import { mergeFileCalls, textHoldsCalls } from './calls.ts';
import type { HarnessId } from '../../ingest/types.ts';
import type { FileCalls } from './file-pass.ts';
import type { BilledCall, HistoryFailure } from './types.ts';

/** A usage field that was not a number: the line is named, its value counted as 0. */
export interface UsageProblem {
  key: string;
  file: string;
  line: number;
  reason: string;
}

export class UsagePass {
  #calls = new Map<string, BilledCall[]>();
  #failed = new Map<string, HistoryFailure>();
  #problems: UsageProblem[] = [];
  #count = 0;
  #startedAt = 0;
  #ms = 0;

  /** A new run (a new listing): nothing known. */
  reset(): void {
    this.#calls = new Map();
    this.#failed = new Map();
    this.#problems = [];
    this.#count = 0;
    this.#startedAt = 0;
    this.#ms = 0;
  }

  start(now: number): void {
    if (!this.#startedAt) this.#startedAt = now;
  }

  /** Every session has its calls (or could not be read): the time the pass took. */
  finish(now: number): void {
    if (this.#startedAt && !this.#ms) this.#ms = Math.max(1, Math.round(now - this.#startedAt));
  }

  get ms(): number {
    return this.#ms;
  }

  /** Calls found by the pass and not yet taken over by the index. */
  get count(): number {
    return this.#count;
  }

  /** One session's answer from a lane. */
  took(key: string, title: string, r: HistoryResult): void {
    if (!r.ok) {
      this.#failed.set(key, { key, title, reason: r.reason });
      return;
    }
    if (!('usage' in r)) return;
    this.#put(key, r.usage);
  }

  /**
   * A listed Claude Code session whose every transcript the scan read whole: its calls merged from
   * theirs (`read`: all of these paths' calls, or null when one is missing), as a lane would read
   * them (lane.ts callsOfBytes, under the same textHoldsCalls). False: a lane must read it.
   */
  fromFiles(key: string, listed: { project: string; harness?: HarnessId; files: readonly string[] }, read: ((paths: string[]) => FileCalls[] | null) | undefined): boolean {
    if (!read || !textHoldsCalls(listed.files, listed.harness)) return false;
    const parts = read(listed.files.filter((p) => p.endsWith('.jsonl')));
    if (!parts) return false;
    this.#put(key, mergeFileCalls(parts, { sessionKey: key, project: listed.project, harness: 'claude-code' }));
    return true;
  }

  #put(key: string, usage: SessionCalls): void {
    this.#count += usage.calls.length - (this.#calls.get(key)?.length ?? 0);
    this.#calls.set(key, usage.calls);
    for (const p of usage.problems) this.#problems.push({ key, ...p });
  }

  /** The index has the session: its entry's calls replace the pass's. */
  indexed(key: string): void {
    const had = this.#calls.get(key);
    if (had) this.#count -= had.length;
    this.#calls.delete(key);
    this.#failed.delete(key);
  }

  has(key: string): boolean {
    return this.#calls.has(key) || this.#failed.has(key);
  }

  calls(key: string): BilledCall[] | undefined {
    return this.#calls.get(key);
  }

  keys(): IterableIterator<string> {
    return this.#calls.keys();
  }

  failures(): HistoryFailure[] {
    return [...this.#failed.values()];
  }

  problems(): readonly UsageProblem[] {
    return this.#problems;
  }
}
