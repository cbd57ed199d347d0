// Writes static/sample/: the bundled sample project folder that `npm start` opens at /?sample.
// A hand-written, fictional Claude Code session (a developer in Berlin asks Claude to fix a flaky
// date test in a small TypeScript repo), laid out exactly as Claude Code 2.1.x writes it:
//   <sid>.jsonl                                  the main transcript (one content block per line)
//   <sid>/subagents/agent-<id>.jsonl + .meta.json the Explore subagent it delegates to
//   states/<sid>.jsonl                           the state log (working / waiting spans)
//   manifest.json, README.md
// Deterministic: every uuid, id and timestamp derives from fixed labels and a fixed clock, so
// each run writes the same bytes. No dependencies. Run: node scripts/make-sample.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'static', 'sample');

// ---------------------------------------------------------------------------------------------
// Identities: hashes of fixed labels, shaped like the real ones.

const hash = (label) => createHash('sha256').update(`loupe-sample:${label}`).digest();
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const b62 = (label, n) => [...hash(label)].slice(0, n).map((b) => B62[b % 62]).join('');

function uuid(label) {
  const h = hash(label).toString('hex');
  const variant = '89ab'[parseInt(h[16], 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
const msgId = (label) => `msg_01${b62(`msg:${label}`, 22)}`;
const reqId = (label) => `req_011C${b62(`req:${label}`, 20)}`;
const toolId = (label) => `toolu_01${b62(`tool:${label}`, 22)}`;
const signature = (label) =>
  Buffer.concat([hash(`sig1:${label}`), hash(`sig2:${label}`), hash(`sig3:${label}`), hash(`sig4:${label}`)]).toString('base64');

const SESSION_ID = uuid('session');
const AGENT_ID = `a${hash('agent').toString('hex').slice(0, 16)}`;
const CWD = '/home/maya/src/duedate';
const BRANCH = 'fix/today-iso-utc';
const VERSION = '2.1.143';
const MODEL = 'claude-opus-4-7';
const AGENT_MODEL = 'claude-haiku-4-5-20251001';

// ---------------------------------------------------------------------------------------------
// The clock: one wall clock for the whole story, advanced by hand.

let clock = Date.parse('2026-03-12T14:02:17.318Z');
const iso = () => new Date(clock).toISOString();
const wait = (ms) => {
  clock += ms;
};
/** Local wall-clock time "HH:MM:SS" at the current instant in a fixed UTC offset (hours). */
const localTime = (offsetHours) => new Date(clock + offsetHours * 3600_000).toISOString().slice(11, 19);
const TZ_BERLIN = 1; // CET (summer time starts 29 March)
const TZ_TORONTO = -4; // EDT since 8 March 2026
const TZ_KIRITIMATI = 14;

// ---------------------------------------------------------------------------------------------
// The repository the session works on (contents are quoted by Read, Edit and Write results).

const FILES = {
  'src/dates/today.ts': `// The calendar date "today" as YYYY-MM-DD, for due dates and reminders.
export function todayISO(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
`,
  'src/dates/parse.ts': `const DAY_MS = 24 * 60 * 60 * 1000;

/** Parses a due date written as YYYY-MM-DD into local midnight of that day. */
export function parseDueDate(input: string): Date {
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(input.trim());
  if (!m) throw new RangeError(\`not a due date: \${input}\`);
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** Whole calendar days from \`now\` until \`due\` (negative when overdue). */
export function daysUntil(due: Date, now: Date = new Date()): number {
  return Math.round((startOfDay(due).getTime() - startOfDay(now).getTime()) / DAY_MS);
}
`,
  'tests/dates.test.ts': `import { describe, expect, it } from 'vitest';
import { daysUntil, parseDueDate } from '../src/dates/parse';
import { todayISO } from '../src/dates/today';

describe('parseDueDate', () => {
  it('reads YYYY-MM-DD as a local calendar date', () => {
    const d = parseDueDate('2026-03-12');
    expect([d.getFullYear(), d.getMonth(), d.getDate()]).toEqual([2026, 2, 12]);
  });

  it('rejects anything else', () => {
    expect(() => parseDueDate('12/03/2026')).toThrow(RangeError);
  });

  it('treats today as zero days away', () => {
    expect(daysUntil(parseDueDate(todayISO()))).toBe(0);
  });
});
`,
  'src/reminders/schedule.ts': `import { daysUntil, parseDueDate } from '../dates/parse';
import { todayISO } from '../dates/today';

export interface Reminder {
  id: string;
  due: string; // YYYY-MM-DD
  leadDays: number;
  lastSentOn?: string; // YYYY-MM-DD
}

/** Whether a reminder should go out today: inside its lead window and not sent yet today. */
export function isDue(r: Reminder, today: string = todayISO()): boolean {
  if (r.lastSentOn === today) return false;
  return daysUntil(parseDueDate(r.due), parseDueDate(today)) <= r.leadDays;
}

export function markSent(r: Reminder, at: Date = new Date()): Reminder {
  return { ...r, lastSentOn: at.toISOString().slice(0, 10) };
}
`,
  'src/reports/weekly.ts': `import type { Reminder } from '../reminders/schedule';

/** Key of the Sunday-started week containing \`date\`, e.g. "2026-03-08". */
export function weekKey(date: Date): string {
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate() - date.getDay());
  return start.toISOString().slice(0, 10);
}

/** Reminders grouped by the week they are due in. */
export function byWeek(reminders: Reminder[]): Map<string, Reminder[]> {
  const weeks = new Map<string, Reminder[]>();
  for (const r of reminders) {
    const key = weekKey(new Date(\`\${r.due}T12:00:00\`));
    const list = weeks.get(key) ?? [];
    list.push(r);
    weeks.set(key, list);
  }
  return weeks;
}
`,
  'src/api/serialize.ts': `import type { Reminder } from '../reminders/schedule';

// The reminders API stores everything in UTC; \`sentDay\` is the UTC calendar day by contract.
export function toApi(r: Reminder, sentAt: Date) {
  return { id: r.id, due: r.due, sentAt: sentAt.toISOString(), sentDay: sentAt.toISOString().slice(0, 10) };
}
`
};
const ORIGINAL = { ...FILES };
const SRC_FILES = ['src/api/serialize.ts', 'src/dates/parse.ts', 'src/dates/today.ts', 'src/index.ts', 'src/reminders/schedule.ts', 'src/reports/weekly.ts'];
const abs = (p) => `${CWD}/${p}`;
/** 1-based line number of the first line containing `needle`. */
const lineOf = (path, needle) => FILES[path].split('\n').findIndex((l) => l.includes(needle)) + 1;

/** Read's tool_result text: each line prefixed with its number and a tab. */
const numbered = (text) =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l, i) => `${i + 1}\t${l}`)
    .join('\n');

/** jsdiff-style structured patch (3 lines of context) between two versions of a file. */
function structuredPatch(before, after, ctx = 3) {
  // Like jsdiff, a file's final newline ends its last line rather than starting an empty one.
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Int32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push([' ', a[i++], i, j++]);
    else if (j >= b.length || (i < a.length && lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(['-', a[i++], i, j]);
    else ops.push(['+', b[j++], i, j]);
  }
  // ops[k][2] / [3] are the 0-based old / new positions *after* the op; recompute starts below.
  const changes = ops.flatMap((op, k) => (op[0] === ' ' ? [] : [k]));
  const ranges = [];
  for (const k of changes) {
    const last = ranges.at(-1);
    if (last && k - ctx <= last[1]) last[1] = Math.min(ops.length, k + 1 + ctx);
    else ranges.push([Math.max(0, k - ctx), Math.min(ops.length, k + 1 + ctx)]);
  }
  return ranges.map(([s, e]) => {
    let oldLine = 1;
    let newLine = 1;
    for (const op of ops.slice(0, s)) {
      if (op[0] !== '+') oldLine++;
      if (op[0] !== '-') newLine++;
    }
    const seg = ops.slice(s, e);
    return {
      oldStart: oldLine,
      oldLines: seg.filter((op) => op[0] !== '+').length,
      newStart: newLine,
      newLines: seg.filter((op) => op[0] !== '-').length,
      lines: seg.map((op) => op[0] + op[1])
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Transcript writer: one line per content block, parentUuid chain, Claude Code's key order.

function usage(input, cacheCreate, cacheRead, output) {
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheCreate,
    cache_read_input_tokens: cacheRead,
    output_tokens: output,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: cacheCreate, ephemeral_5m_input_tokens: 0 },
    inference_geo: '',
    iterations: [
      {
        input_tokens: input,
        output_tokens: output,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cacheCreate,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: cacheCreate },
        type: 'message'
      }
    ],
    speed: 'standard'
  };
}

class Transcript {
  /** @param {{name: string, agentId?: string, model: string}} o */
  constructor(o) {
    this.name = o.name;
    this.agentId = o.agentId ?? null;
    this.model = o.model;
    this.lines = [];
    this.tip = null; // uuid the next content line hangs off
    this.promptId = null;
    this.n = 0;
  }
  label(kind) {
    return `${this.name}:${kind}:${++this.n}`;
  }
  envTail() {
    return { userType: 'external', entrypoint: 'cli', cwd: CWD, sessionId: SESSION_ID, version: VERSION, gitBranch: BRANCH };
  }
  head(parentUuid) {
    return { parentUuid, isSidechain: this.agentId !== null };
  }
  push(line) {
    this.lines.push(JSON.stringify(line));
  }
  meta(line) {
    this.push(line);
  }
  snapshot(messageId, backups, isUpdate, promptTime) {
    this.push({
      type: 'file-history-snapshot',
      messageId,
      snapshot: { messageId: isUpdate ? this.promptUuid : messageId, trackedFileBackups: backups, timestamp: promptTime ?? iso() },
      isSnapshotUpdate: isUpdate
    });
  }

  /** A prompt typed by the person (main transcript) or the delegated prompt (subagent). */
  prompt(text, { typed = true, backups = {} } = {}) {
    const id = uuid(this.label('prompt'));
    this.promptId = uuid(this.label('promptId'));
    this.promptUuid = id;
    this.promptTime = iso();
    if (!this.agentId) this.snapshot(id, backups, false, new Date(clock + 107).toISOString());
    const line = { ...this.head(this.tip), promptId: this.promptId };
    if (this.agentId) line.agentId = this.agentId;
    Object.assign(line, { type: 'user', message: { role: 'user', content: text }, uuid: id, timestamp: iso() });
    if (typed) Object.assign(line, { permissionMode: 'default', promptSource: 'typed' });
    this.push({ ...line, ...this.envTail() });
    this.tip = id;
    return id;
  }

  attachment(attachment, ms = 0) {
    const id = uuid(this.label('attachment'));
    this.push({ ...this.head(this.tip), attachment, type: 'attachment', uuid: id, timestamp: new Date(clock + ms).toISOString(), ...this.envTail() });
    this.tip = id;
  }

  system(subtype, fields) {
    const id = uuid(this.label('system'));
    this.push({ ...this.head(this.tip), type: 'system', subtype, ...fields, timestamp: iso(), uuid: id, isMeta: false, ...this.envTail() });
    this.tip = id;
    return id;
  }

  /**
   * One API message written as one line per block. `blocks` entries are content blocks, except
   * tool calls, given as {tool: name, input, key}. Returns the tool calls with their line uuids.
   * `gaps` is the wall time (ms) before each block's line.
   */
  message(blocks, tokens, gaps = []) {
    const mid = msgId(this.label('message'));
    const rid = reqId(this.label('request'));
    const calls = [];
    blocks.forEach((b, k) => {
      wait(gaps[k] ?? (k === 0 ? 2400 : 600));
      let block = b;
      if (b.tool) {
        const id = toolId(this.label(`tool:${b.tool}`));
        block = { type: 'tool_use', id, name: b.tool, input: b.input, caller: { type: 'direct' } };
      }
      const id = uuid(this.label('assistant'));
      const line = this.head(this.tip);
      if (this.agentId) line.agentId = this.agentId;
      Object.assign(line, {
        message: {
          model: this.model,
          id: mid,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          usage: usage(...tokens)
        },
        requestId: rid,
        type: 'assistant',
        uuid: id,
        timestamp: iso(),
        ...this.envTail()
      });
      this.push(line);
      this.tip = id;
      if (b.tool) calls.push({ id: block.id, name: b.tool, input: b.input, lineUuid: id });
    });
    return calls;
  }

  /** The tool_result line for one call, parented to the call's own line. */
  result(call, content, toolUseResult, { isError = false, ms = 40 } = {}) {
    wait(ms);
    const id = uuid(this.label('result'));
    const block = { tool_use_id: call.id, type: 'tool_result', content };
    if (isError || typeof content === 'string') block.is_error = isError;
    const line = { ...this.head(call.lineUuid), promptId: this.promptId };
    if (this.agentId) line.agentId = this.agentId;
    Object.assign(line, { type: 'user', message: { role: 'user', content: [block] }, uuid: id, timestamp: iso() });
    if (toolUseResult !== undefined) line.toolUseResult = toolUseResult;
    line.sourceToolAssistantUUID = call.lineUuid;
    this.push({ ...line, ...this.envTail() });
    this.tip = id;
    return id;
  }

  text() {
    return `${this.lines.join('\n')}\n`;
  }
}

const thinking = (text, label) => ({ type: 'thinking', thinking: text, signature: signature(label) });
const text = (t) => ({ type: 'text', text: t });

// Tool results in Claude Code's shapes.
function readResult(t, call, path) {
  const content = FILES[path];
  const numLines = content.replace(/\n$/, '').split('\n').length;
  return t.result(call, numbered(content), {
    type: 'text',
    file: { filePath: abs(path), content, numLines, startLine: 1, totalLines: numLines }
  });
}
function editFile(t, path, oldString, newString, { ms = 180, gap = 7400 } = {}) {
  const before = FILES[path];
  if (!before.includes(oldString)) throw new Error(`edit of ${path}: old string not found`);
  const after = before.replace(oldString, newString);
  const [call] = t.message([{ tool: 'Edit', input: { file_path: abs(path), old_string: oldString, new_string: newString } }], editTokens(), [gap]);
  FILES[path] = after;
  return {
    call,
    finish: () =>
      t.result(call, `The file ${abs(path)} has been updated successfully.`, {
        filePath: abs(path),
        oldString,
        newString,
        originalFile: before,
        structuredPatch: structuredPatch(before, after),
        userModified: false,
        replaceAll: false
      }, { ms })
  };
}
let cacheRead = 21480;
function editTokens() {
  cacheRead += 640;
  return [1, 410, cacheRead, 380];
}
function bashOk(t, call, stdout, ms) {
  return t.result(call, stdout, { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, { ms });
}
const TODO_DONE = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';

// Vitest output, consistent with the files and the clock.
const VITEST_HEAD = `\n RUN  v3.2.4 ${CWD}\n\n`;
function vitestPass(files, tz, durations) {
  const tests = files.reduce((n, [, k]) => n + k, 0);
  const rows = files.map(([f, k, ms]) => ` ✓ ${f} (${k} tests) ${ms}ms`).join('\n');
  return `${VITEST_HEAD}${rows}\n\n Test Files  ${files.length} passed (${files.length})\n      Tests  ${tests} passed (${tests})\n   Start at  ${localTime(tz)}\n   Duration  ${durations}\n`;
}

// ---------------------------------------------------------------------------------------------
// The story.

const main = new Transcript({ name: 'main', model: MODEL });
const agent = new Transcript({ name: 'agent', agentId: AGENT_ID, model: AGENT_MODEL });
const states = [];
const state = (s, atMs = clock) => states.push({ t: Math.floor(atMs / 1000), state: s });
const turnStarts = [];
let turnMessages = 0;
function endTurn(lastPrompt) {
  wait(130);
  main.system('turn_duration', { durationMs: clock - turnStarts.at(-1), messageCount: main.lines.length - turnMessages });
  main.meta({ type: 'last-prompt', lastPrompt, sessionId: SESSION_ID });
  state('waiting', clock + 1000);
}
function startTurn() {
  turnStarts.push(clock);
  turnMessages = main.lines.length;
  state('working');
}

main.meta({ type: 'permission-mode', permissionMode: 'default', sessionId: SESSION_ID });

// ── Turn 1: the flaky test ───────────────────────────────────────────────────────────────────
const PROMPT_1 =
  'The "treats today as zero days away" test in tests/dates.test.ts fails on CI about one run in five, but never on my machine. Can you find out why and fix it? (CI is our self-hosted runner in Toronto.)';
startTurn();
main.prompt(PROMPT_1);
main.attachment({
  type: 'deferred_tools_delta',
  addedNames: ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'NotebookEdit', 'WebFetch', 'WebSearch'],
  addedLines: ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'NotebookEdit', 'WebFetch', 'WebSearch'],
  removedNames: []
}, -1);
main.attachment({
  type: 'skill_listing',
  content:
    '- update-config: Use this skill to configure the Claude Code harness via settings.json.\n- simplify: Review changed code for reuse, quality, and efficiency, then fix any issues found.\n- init: Initialize a new CLAUDE.md file with codebase documentation\n- review: Review a pull request\n- security-review: Complete a security review of the pending changes on the current branch',
  skillCount: 5,
  isInitial: true
}, -1);

let calls = main.message(
  [
    thinking(
      'A test that compares against "today" and only fails on one machine, some of the time, is almost always a time-of-day or timezone problem. The CI runner is in Toronto, so it runs on America/Toronto time; the developer is somewhere else. If one side of the comparison uses UTC and the other local time, they disagree for a few hours every day, and only in some zones.\n\nBefore guessing, read the test and see which helpers it calls.',
      't1-think-1'
    ),
    { tool: 'Read', input: { file_path: abs('tests/dates.test.ts') } },
    { tool: 'Glob', input: { pattern: 'src/**/*.ts' } }
  ],
  [3, 6210, 14870, 412],
  [14200, 3200, 40]
);
readResult(main, calls[0], 'tests/dates.test.ts');
main.result(calls[1], SRC_FILES.map(abs).join('\n'), { filenames: SRC_FILES.map(abs), durationMs: 23, numFiles: SRC_FILES.length, truncated: false }, { ms: 30 });

calls = main.message(
  [
    { tool: 'Read', input: { file_path: abs('src/dates/today.ts') } },
    { tool: 'Read', input: { file_path: abs('src/dates/parse.ts') } }
  ],
  [1, 1180, 21080, 164],
  [6300, 60]
);
readResult(main, calls[0], 'src/dates/today.ts');
readResult(main, calls[1], 'src/dates/parse.ts');

calls = main.message(
  [
    text(
      '`todayISO()` takes the date from `toISOString()`, which is always the **UTC** date, while `parseDueDate()` and `daysUntil()` both work in **local** time. Whenever the two calendars disagree, "today" is really yesterday or tomorrow. Let me check who else uses `todayISO()`.'
    ),
    { tool: 'Grep', input: { pattern: 'todayISO' } }
  ],
  [1, 940, 22260, 231],
  [9200, 1500]
);
const GREP_HITS = ['src/reminders/schedule.ts', 'src/dates/today.ts', 'tests/dates.test.ts'].map(abs);
main.result(calls[0], `Found ${GREP_HITS.length} files\n${GREP_HITS.join('\n')}`, { mode: 'files_with_matches', filenames: GREP_HITS, numFiles: GREP_HITS.length }, { ms: 60 });

calls = main.message([{ tool: 'Bash', input: { command: 'npx vitest run tests/dates.test.ts', description: 'Run the date tests locally' } }], [1, 388, 23200, 96], [5600]);
wait(1900);
bashOk(main, calls[0], vitestPass([['tests/dates.test.ts', 3, 4]], TZ_BERLIN, '298ms (transform 41ms, setup 0ms, collect 37ms, tests 4ms, environment 0ms, prepare 71ms)'), 40);

calls = main.message(
  [
    thinking(
      "Passes here, as expected: in Berlin the local and UTC dates only differ between midnight and 01:00. To reproduce on demand I need a zone where the local date differs from the UTC date right now. It's just after 14:00 UTC, and Pacific/Kiritimati is UTC+14, so it is already tomorrow there: todayISO() will return yesterday's date for that zone and daysUntil should come out as -1.",
      't1-think-2'
    ),
    { tool: 'Bash', input: { command: 'TZ=Pacific/Kiritimati npx vitest run tests/dates.test.ts', description: 'Run the date tests in a UTC+14 timezone' } }
  ],
  [1, 1460, 23588, 318],
  [16800, 2900]
);
wait(2100);
{
  const testLine = FILES['tests/dates.test.ts'].split('\n');
  const n = lineOf('tests/dates.test.ts', 'toBe(0)');
  const col = testLine[n - 1].indexOf('toBe(0)') + 1;
  const src = (k) => `    ${String(k).padStart(2)}| ${testLine[k - 1]}`.replace(/ +$/, k === n - 2 ? ' ' : '');
  const out = `Exit code 1
${VITEST_HEAD} ❯ tests/dates.test.ts (3 tests | 1 failed) 8ms
   ✓ parseDueDate > reads YYYY-MM-DD as a local calendar date 1ms
   ✓ parseDueDate > rejects anything else 1ms
   × parseDueDate > treats today as zero days away 5ms
     → expected -1 to be +0 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 FAIL  tests/dates.test.ts > parseDueDate > treats today as zero days away
AssertionError: expected -1 to be +0 // Object.is equality

- Expected
+ Received

- 0
+ -1

 ❯ tests/dates.test.ts:${n}:${col}
${src(n - 2)}
${src(n - 1)}
${src(n)}
       |${' '.repeat(col)}^
${src(n + 1)}
${src(n + 2)}

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯


 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  ${localTime(TZ_KIRITIMATI)}
   Duration  341ms (transform 44ms, setup 0ms, collect 39ms, tests 8ms, environment 0ms, prepare 76ms)`;
  // A failing command: Claude Code records the error text, not the {stdout, stderr} object.
  main.result(calls[0], out, `Error: ${out}`, { isError: true, ms: 40 });
}

const TODOS_1 = [
  { content: 'Make todayISO() use the local calendar date', status: 'in_progress', activeForm: 'Fixing todayISO()' },
  { content: 'Add a regression test that fails in any non-UTC timezone', status: 'pending', activeForm: 'Adding a regression test' },
  { content: 'Run the full suite under UTC+14 and Toronto time', status: 'pending', activeForm: 'Running the suite under several timezones' }
];
calls = main.message(
  [
    text('Reproduced: in Kiritimati the UTC date is still *yesterday*, so "today" comes out as −1 days away. On the Toronto runner it is the mirror image: from 20:00 local the UTC date is already tomorrow. Plan:'),
    { tool: 'TodoWrite', input: { todos: TODOS_1 } }
  ],
  [1, 2210, 25048, 402],
  [9400, 1400]
);
main.result(calls[0], TODO_DONE, { oldTodos: [], newTodos: TODOS_1 }, { ms: 20 });

let edit = editFile(
  main,
  'src/dates/today.ts',
  `// The calendar date "today" as YYYY-MM-DD, for due dates and reminders.
export function todayISO(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}`,
  `// The calendar date "today" as YYYY-MM-DD, for due dates and reminders.
// Uses the local calendar, not UTC: toISOString() would give tomorrow's (or
// yesterday's) date for part of the day anywhere west (or east) of Greenwich.
export function todayISO(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return \`\${y}-\${m}-\${d}\`;
}`
);
main.snapshot(edit.call.lineUuid, { 'src/dates/today.ts': { backupFileName: `${hash('bk:today').toString('hex').slice(0, 16)}@v1`, version: 1, backupTime: iso() } }, true, main.promptTime);
edit.finish();

edit = editFile(
  main,
  'tests/dates.test.ts',
  `  it('treats today as zero days away', () => {
    expect(daysUntil(parseDueDate(todayISO()))).toBe(0);
  });
});`,
  `  it('treats today as zero days away', () => {
    expect(daysUntil(parseDueDate(todayISO()))).toBe(0);
  });

  it('todayISO follows the local calendar at both ends of the day', () => {
    // With the UTC date, one of these is off by a day in every timezone but UTC.
    expect(todayISO(new Date(2026, 2, 11, 0, 30))).toBe('2026-03-11');
    expect(todayISO(new Date(2026, 2, 11, 23, 30))).toBe('2026-03-11');
  });
});`
);
main.snapshot(
  edit.call.lineUuid,
  {
    'src/dates/today.ts': { backupFileName: `${hash('bk:today').toString('hex').slice(0, 16)}@v1`, version: 1, backupTime: new Date(clock - 9000).toISOString() },
    'tests/dates.test.ts': { backupFileName: `${hash('bk:dates-test').toString('hex').slice(0, 16)}@v1`, version: 1, backupTime: iso() }
  },
  true,
  main.promptTime
);
edit.finish();

calls = main.message(
  [{ tool: 'Bash', input: { command: 'TZ=Pacific/Kiritimati npx vitest run && TZ=America/Toronto npx vitest run', description: 'Run the full suite in UTC+14 and Toronto time' } }],
  [1, 880, 27130, 121],
  [6900]
);
wait(1700);
{
  const durations = '356ms (transform 62ms, setup 0ms, collect 71ms, tests 9ms, environment 0ms, prepare 142ms)';
  const a = vitestPass([['tests/schedule.test.ts', 5, 5], ['tests/dates.test.ts', 4, 4]], TZ_KIRITIMATI, durations);
  wait(1100);
  const b = vitestPass([['tests/schedule.test.ts', 5, 4], ['tests/dates.test.ts', 4, 4]], TZ_TORONTO, '331ms (transform 58ms, setup 0ms, collect 66ms, tests 8ms, environment 0ms, prepare 131ms)');
  bashOk(main, calls[0], `${a}${b}`, 40);
}

const TODOS_1_DONE = TODOS_1.map((t) => ({ ...t, status: 'completed' }));
calls = main.message([{ tool: 'TodoWrite', input: { todos: TODOS_1_DONE } }], [1, 1320, 28010, 139], [4800]);
main.result(calls[0], TODO_DONE, { oldTodos: TODOS_1, newTodos: TODOS_1_DONE }, { ms: 20 });

main.message(
  [
    text(`Found it: the test is fine, \`todayISO()\` isn't. It took the date from \`toISOString()\`, which is the **UTC** date, while \`parseDueDate()\` and \`daysUntil()\` work in **local** time. Whenever the two calendars disagree, "today" is off by a day:

| where | fails between (local time) | share of runs |
| --- | --- | --- |
| Toronto CI runner (UTC−4) | 20:00 – 24:00 | about 1 in 6 |
| your laptop in Berlin (UTC+1) | 00:00 – 01:00 | about 1 in 24 |

The fix formats the local calendar date instead:

\`\`\`ts
const y = now.getFullYear();
const m = String(now.getMonth() + 1).padStart(2, '0');
const d = String(now.getDate()).padStart(2, '0');
return \`\${y}-\${m}-\${d}\`;
\`\`\`

A new regression test pins 00:30 and 23:30 on the same local day, so the old code fails in *every* non-UTC timezone on the first run. All 9 tests pass under \`Pacific/Kiritimati\` (UTC+14) and \`America/Toronto\`.`)
  ],
  [1, 690, 29330, 702],
  [21000]
);
endTurn(PROMPT_1);

// ── Turn 2: other call sites, via an Explore subagent ────────────────────────────────────────
wait(3 * 60_000 + 41_000);
const PROMPT_2 = 'Nice, thanks. Are there other places that build a calendar date out of toISOString()? Check the other call sites before I merge this.';
startTurn();
const backupsV2 = {
  'src/dates/today.ts': { backupFileName: `${hash('bk:today').toString('hex').slice(0, 16)}@v2`, version: 2, backupTime: iso() },
  'tests/dates.test.ts': { backupFileName: `${hash('bk:dates-test').toString('hex').slice(0, 16)}@v2`, version: 2, backupTime: iso() }
};
main.prompt(PROMPT_2, { backups: backupsV2 });

const AGENT_DESCRIPTION = 'Find UTC date-slicing call sites';
const AGENT_PROMPT = `Find every place under ${CWD}/src that turns a Date into a calendar-date string by slicing \`toISOString()\` (for example \`.toISOString().slice(0, 10)\` or \`.substring(0, 10)\`), or that otherwise mixes UTC and local calendar dates. \`src/dates/today.ts\` has just been fixed (it now uses getFullYear/getMonth/getDate), so skip it.

For each hit report: file and line, what the function does, whether the Date it formats is local midnight, a local time or a real instant, and whether the UTC date is intended (look for comments or API contracts). Also say whether any test covers it. Be concise: a list, no code changes.`;
calls = main.message(
  [
    text("I'll have an Explore agent sweep `src/` for the same pattern and check each hit's intent."),
    { tool: 'Agent', input: { description: AGENT_DESCRIPTION, prompt: AGENT_PROMPT, subagent_type: 'Explore' } }
  ],
  [3, 1890, 30020, 611],
  [8700, 2100]
);
const agentCall = calls[0];
const agentStart = clock;

// The subagent's own transcript (same sessionId, isSidechain, agentId on every line).
wait(4);
agent.promptId = main.promptId;
{
  const id = uuid(agent.label('prompt'));
  agent.push({
    parentUuid: null,
    isSidechain: true,
    promptId: main.promptId,
    agentId: AGENT_ID,
    type: 'user',
    message: { role: 'user', content: AGENT_PROMPT },
    uuid: id,
    timestamp: iso(),
    ...agent.envTail()
  });
  agent.tip = id;
}
const GREP_PATTERN = 'toISOString\\(\\)\\.(slice|substring)\\(0, ?10\\)';
const grepHits = ['src/api/serialize.ts', 'src/reminders/schedule.ts', 'src/reports/weekly.ts'].map((p) => {
  const n = lineOf(p, 'toISOString().slice(0, 10)');
  return `${p}:${n}:${FILES[p].split('\n')[n - 1]}`;
});
let acalls = agent.message(
  [text("I'll search `src/` for dates sliced out of `toISOString()`."), { tool: 'Grep', input: { pattern: GREP_PATTERN, path: 'src', output_mode: 'content', '-n': true } }],
  [3, 9120, 0, 188],
  [5200, 600]
);
agent.result(acalls[0], grepHits.join('\n'), undefined, { ms: 70 });
acalls = agent.message(
  [
    { tool: 'Read', input: { file_path: abs('src/reminders/schedule.ts') } },
    { tool: 'Read', input: { file_path: abs('src/reports/weekly.ts') } }
  ],
  [1, 560, 9120, 142],
  [8100, 80]
);
agent.result(acalls[0], numbered(FILES['src/reminders/schedule.ts']), undefined, { ms: 15 });
agent.result(acalls[1], numbered(FILES['src/reports/weekly.ts']), undefined, { ms: 12 });
acalls = agent.message([{ tool: 'Grep', input: { pattern: 'markSent|weekKey|byWeek', path: 'tests', output_mode: 'content', '-n': true } }], [1, 1480, 9680, 97], [9400]);
agent.result(acalls[0], "tests/schedule.test.ts:2:import { isDue, markSent } from '../src/reminders/schedule';\ntests/schedule.test.ts:31:    const sent = markSent(r, new Date(2026, 2, 12, 12, 0));", undefined, { ms: 50 });

const L_SCHEDULE = lineOf('src/reminders/schedule.ts', 'toISOString');
const L_WEEKLY = lineOf('src/reports/weekly.ts', 'toISOString');
const L_SERIALIZE = lineOf('src/api/serialize.ts', 'sentDay:');
const L_CONTRACT = lineOf('src/api/serialize.ts', 'by contract');
const AGENT_REPORT = `Three hits, all \`toISOString().slice(0, 10)\`; nothing uses \`substring\` or \`toJSON()\` for dates.

1. **src/reminders/schedule.ts:${L_SCHEDULE}**: \`markSent(r, at = new Date())\` stores \`lastSentOn: at.toISOString().slice(0, 10)\`. \`at\` is a real instant, so this is the UTC day, but \`isDue()\` compares \`lastSentOn\` with \`todayISO()\`, the local day. West of UTC in the evening (Toronto after 20:00) \`lastSentOn\` is tomorrow's date, \`isDue()\` returns true again and the reminder goes out twice. Covered by \`tests/schedule.test.ts:31\`, but only with \`at\` at 12:00 local, where both days agree.
2. **src/reports/weekly.ts:${L_WEEKLY}**: \`weekKey(date)\` builds \`start\` as *local midnight* of the week's Sunday, then formats it as a UTC date. East of UTC the key is the Saturday before (in Berlin the week of 8 March 2026 is keyed \`2026-03-07\`). No test covers \`weekKey()\` or \`byWeek()\`.
3. **src/api/serialize.ts:${L_SERIALIZE}**: \`sentDay: sentAt.toISOString().slice(0, 10)\`. Intended: the comment on line ${L_CONTRACT} says the reminders API stores UTC days by contract. Leave it.

\`todayISO()\` is imported only by \`src/reminders/schedule.ts\` and \`tests/dates.test.ts\`.`;
agent.message([text(AGENT_REPORT)], [1, 1210, 11160, 544], [21800]);
const agentLines = agent.lines.length;

wait(900);
const agentMs = clock - agentStart;
const agentTokens = 11160 + 1210 + 1 + 544;
main.result(
  agentCall,
  [text(AGENT_REPORT), text(`agentId: ${AGENT_ID} (use SendMessage with to: '${AGENT_ID}' to continue this agent)\n<usage>total_tokens: ${agentTokens}\ntool_uses: 4\nduration_ms: ${agentMs}</usage>`)],
  {
    status: 'completed',
    prompt: AGENT_PROMPT,
    agentId: AGENT_ID,
    agentType: 'Explore',
    content: [text(AGENT_REPORT)],
    totalDurationMs: agentMs,
    totalTokens: agentTokens,
    totalToolUseCount: 4,
    toolStats: { readCount: 2, searchCount: 2, bashCount: 0, editFileCount: 0, linesAdded: 0, linesRemoved: 0, otherToolCount: 0 }
  },
  { ms: 0 }
);

main.message(
  [
    text(`The agent found three more places that slice a date out of \`toISOString()\`. Two are the same bug:

| call site | what it formats | verdict |
| --- | --- | --- |
| \`src/reminders/schedule.ts:${L_SCHEDULE}\` \`markSent()\` | the instant a reminder was sent | **bug**: on a Toronto evening \`lastSentOn\` is tomorrow's date, so \`isDue()\` sends the reminder a second time |
| \`src/reports/weekly.ts:${L_WEEKLY}\` \`weekKey()\` | local midnight of the week's Sunday | **bug**: east of UTC (Berlin included) every week is keyed by the Saturday before |
| \`src/api/serialize.ts:${L_SERIALIZE}\` \`toApi()\` | the sent instant, for the API | fine: the API stores UTC days by contract, and the code says so |

Nothing tests \`weekKey()\`, which is how the Berlin off-by-one went unnoticed, and the \`markSent()\` test only uses noon, where UTC and local days agree.

Want me to fix both? I'd move the local-date formatting out of \`todayISO()\` into a shared \`localISODate()\` helper, so there is exactly one place that turns a \`Date\` into \`YYYY-MM-DD\`.`)
  ],
  [1, 1930, 31910, 498],
  [16300]
);
endTurn(PROMPT_2);
const agentEnd = clock;

// ── The pause: the developer is away for half an hour ────────────────────────────────────────
wait(31 * 60_000 + 12_000);
main.system('away_summary', {
  content:
    'Fixed the flaky "treats today as zero days away" test: todayISO() used the UTC date while the rest of the code is local. An Explore agent then found the same bug in markSent() (schedule.ts) and weekKey() (weekly.ts); serialize.ts is UTC on purpose. Waiting on whether to fix those two with a shared localISODate() helper.'
});
wait(26_000);

// ── Turn 3: fix both, with a question and a documentation check ──────────────────────────────
const PROMPT_3 = 'Yes, fix both, with the shared helper. Leave serialize.ts alone.';
startTurn();
main.prompt(PROMPT_3, { backups: backupsV2 });

const QUESTION = "weekKey() labels each week by its Sunday. The tests I'm adding will pin that convention, so which one should reports use?";
const QUESTIONS = [
  {
    question: QUESTION,
    header: 'Week start',
    options: [
      { label: 'Keep Sunday-start', description: 'No behaviour change: the week of Thursday 12 March 2026 stays "2026-03-08".' },
      { label: 'ISO weeks (Monday)', description: 'Monday-started weeks keyed like "2026-W11". Changes every existing report key.' }
    ],
    multiSelect: false
  }
];
calls = main.message(
  [
    thinking(
      "Two mechanical fixes plus a helper. The one judgement call is weekKey(): it uses Sunday-started weeks. The fix doesn't change that, but the new tests will pin it, and finance-style reports often expect ISO weeks starting on Monday. Cheap to ask now, expensive to change later.",
      't3-think-1'
    ),
    { tool: 'AskUserQuestion', input: { questions: QUESTIONS } }
  ],
  [3, 2480, 33840, 377],
  [11200, 2900]
);
wait(1 * 60_000 + 48_000);
main.result(
  calls[0],
  `User has answered your questions: "${QUESTION}"="Keep Sunday-start". You can now continue with the user's answers in mind.`,
  { questions: QUESTIONS, answers: { [QUESTION]: 'Keep Sunday-start' } },
  { ms: 0 }
);

const MDN = 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Date/toLocaleDateString';
const MDN_ANSWER = `The page does not promise any particular output format for a locale. Its relevant warning:

> Most of the time, the formatting returned by toLocaleDateString() is consistent. However, the output may vary between implementations, even within the same locale — output variations are by design and allowed by the specification. It may also not be what you expect. For example, the string may use non-breaking spaces or be surrounded by bidirectional control characters. You should not compare the results of toLocaleDateString() to hardcoded constants.

So \`en-CA\` producing \`YYYY-MM-DD\` is a property of today's locale data, not a guarantee. For a fixed structure the page points to \`Intl.DateTimeFormat.prototype.formatToParts()\`.`;
calls = main.message(
  [
    text("Sunday-start it is. Before writing the helper: `toLocaleDateString('en-CA')` happens to produce `YYYY-MM-DD` and would be a one-liner, but I want to check whether that format is actually guaranteed."),
    { tool: 'WebFetch', input: { url: MDN, prompt: "Can toLocaleDateString('en-CA') be relied on to return YYYY-MM-DD? Quote any warning about depending on its output format." } }
  ],
  [1, 560, 36320, 244],
  [7100, 1100]
);
wait(8400);
main.result(calls[0], MDN_ANSWER, { bytes: 187342, code: 200, codeText: 'OK', result: MDN_ANSWER, durationMs: 8412, url: MDN }, { ms: 0 });

main.message([text("MDN says not to rely on it, so I'll keep the explicit `getFullYear()` / `getMonth()` / `getDate()` formatting and just move it into `localISODate()`.")], [1, 1620, 36880, 1204], [5600]);
edit = editFile(
  main,
  'src/dates/today.ts',
  `// The calendar date "today" as YYYY-MM-DD, for due dates and reminders.
// Uses the local calendar, not UTC: toISOString() would give tomorrow's (or
// yesterday's) date for part of the day anywhere west (or east) of Greenwich.
export function todayISO(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return \`\${y}-\${m}-\${d}\`;
}`,
  `// Calendar dates as YYYY-MM-DD, for due dates, reminders and reports.
// Uses the local calendar, not UTC: toISOString() would give tomorrow's (or
// yesterday's) date for part of the day anywhere west (or east) of Greenwich.
export function localISODate(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return \`\${y}-\${m}-\${d}\`;
}

export function todayISO(now: Date = new Date()): string {
  return localISODate(now);
}`
);
edit.finish();
editFile(main, 'src/reminders/schedule.ts', "import { todayISO } from '../dates/today';", "import { localISODate, todayISO } from '../dates/today';").finish();
editFile(main, 'src/reminders/schedule.ts', '  return { ...r, lastSentOn: at.toISOString().slice(0, 10) };', '  return { ...r, lastSentOn: localISODate(at) };').finish();
editFile(main, 'src/reports/weekly.ts', "import type { Reminder } from '../reminders/schedule';", "import { localISODate } from '../dates/today';\nimport type { Reminder } from '../reminders/schedule';").finish();
editFile(main, 'src/reports/weekly.ts', '  return start.toISOString().slice(0, 10);', '  return localISODate(start);').finish();

const WEEKLY_TEST = `import { describe, expect, it } from 'vitest';
import { byWeek, weekKey } from '../src/reports/weekly';

describe('weekKey', () => {
  it('labels a week by its Sunday, in local time', () => {
    expect(weekKey(new Date(2026, 2, 8, 0, 15))).toBe('2026-03-08'); // Sunday, just after midnight
    expect(weekKey(new Date(2026, 2, 12, 9, 0))).toBe('2026-03-08'); // Thursday morning
    expect(weekKey(new Date(2026, 2, 14, 23, 45))).toBe('2026-03-08'); // Saturday night
  });

  it('starts a new week on Sunday', () => {
    expect(weekKey(new Date(2026, 2, 15, 0, 5))).toBe('2026-03-15');
  });
});

describe('byWeek', () => {
  it('groups reminders by the week they are due in', () => {
    const weeks = byWeek([
      { id: 'a', due: '2026-03-09', leadDays: 1 },
      { id: 'b', due: '2026-03-14', leadDays: 2 },
      { id: 'c', due: '2026-03-16', leadDays: 1 }
    ]);
    expect([...weeks.keys()]).toEqual(['2026-03-08', '2026-03-15']);
    expect(weeks.get('2026-03-08')?.map((r) => r.id)).toEqual(['a', 'b']);
  });
});
`;
calls = main.message(
  [text('Now a test file for the week keys, since nothing covered them:'), { tool: 'Write', input: { file_path: abs('tests/weekly.test.ts'), content: WEEKLY_TEST } }],
  [1, 720, 39610, 596],
  [6800, 9100]
);
FILES['tests/weekly.test.ts'] = WEEKLY_TEST;
main.result(calls[0], `File created successfully at: ${abs('tests/weekly.test.ts')}`, {
  type: 'create',
  filePath: abs('tests/weekly.test.ts'),
  content: WEEKLY_TEST,
  structuredPatch: [],
  originalFile: null
}, { ms: 60 });

calls = main.message(
  [
    {
      tool: 'Bash',
      input: {
        command: 'for tz in Pacific/Kiritimati Europe/Berlin America/Toronto; do echo "== $tz"; TZ=$tz npx vitest run --reporter=dot || exit 1; done; npx tsc --noEmit && echo "tsc: ok"',
        description: 'Run all tests in three timezones, then type-check'
      }
    }
  ],
  [1, 1040, 40330, 170],
  [6300]
);
{
  const runs = [];
  for (const [tz, off, d] of [
    ['Pacific/Kiritimati', TZ_KIRITIMATI, '402ms (transform 88ms, setup 0ms, collect 121ms, tests 11ms, environment 1ms, prepare 214ms)'],
    ['Europe/Berlin', TZ_BERLIN, '377ms (transform 81ms, setup 0ms, collect 113ms, tests 10ms, environment 0ms, prepare 198ms)'],
    ['America/Toronto', TZ_TORONTO, '381ms (transform 83ms, setup 0ms, collect 116ms, tests 10ms, environment 0ms, prepare 203ms)']
  ]) {
    wait(1300);
    runs.push(`== ${tz}\n${VITEST_HEAD}${'·'.repeat(12)}\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)\n   Start at  ${localTime(off)}\n   Duration  ${d}\n`);
  }
  wait(2600);
  bashOk(main, calls[0], `${runs.join('\n')}tsc: ok`, 40);
}

main.message(
  [
    text(`Done. Both bugs are fixed with one shared helper, and weeks stay Sunday-started.

- \`src/dates/today.ts\`: new \`localISODate(date)\`; \`todayISO()\` now just calls it.
- \`src/reminders/schedule.ts\`: \`markSent()\` records \`localISODate(at)\`, so \`isDue()\` compares a local day with a local day and a reminder can no longer go out twice on a Toronto evening.
- \`src/reports/weekly.ts\`: \`weekKey()\` formats the local Sunday instead of its UTC instant (Berlin got the Saturday before).
- \`tests/weekly.test.ts\` (new): week boundaries just after Sunday midnight and late on Saturday night, plus \`byWeek()\` grouping.
- \`src/api/serialize.ts\`: untouched; its UTC \`sentDay\` is the API contract.

All 12 tests pass under \`Pacific/Kiritimati\`, \`Europe/Berlin\` and \`America/Toronto\`, and \`tsc --noEmit\` is clean. I skipped \`toLocaleDateString('en-CA')\` as a shortcut because MDN warns its output format is not guaranteed.`)
  ],
  [1, 1380, 41370, 436],
  [17900]
);
endTurn(PROMPT_3);

// ── Turn 4: a commit message ─────────────────────────────────────────────────────────────────
wait(44 * 60_000 + 7_000);
const PROMPT_4 = "Perfect. Write me a commit message for all of this, I'll commit it myself.";
startTurn();
main.prompt(PROMPT_4, {
  backups: {
    ...backupsV2,
    'src/reminders/schedule.ts': { backupFileName: `${hash('bk:schedule').toString('hex').slice(0, 16)}@v2`, version: 2, backupTime: iso() },
    'src/reports/weekly.ts': { backupFileName: `${hash('bk:weekly').toString('hex').slice(0, 16)}@v2`, version: 2, backupTime: iso() }
  }
});
calls = main.message(
  [thinking('', 't4-think-1'), { tool: 'Bash', input: { command: 'git status --short && git diff --stat', description: 'Show what changed' } }],
  [3, 1510, 42800, 88],
  [4300, 1800]
);
{
  const changed = ['src/dates/today.ts', 'src/reminders/schedule.ts', 'src/reports/weekly.ts', 'tests/dates.test.ts'];
  const stats = changed.map((p) => {
    const lines = structuredPatch(ORIGINAL[p], FILES[p]).flatMap((h) => h.lines);
    return [p, lines.filter((l) => l[0] === '+').length, lines.filter((l) => l[0] === '-').length];
  });
  const w = Math.max(...changed.map((p) => p.length));
  const nw = Math.max(...stats.map(([, a, d]) => String(a + d).length));
  const ins = stats.reduce((n, [, a]) => n + a, 0);
  const del = stats.reduce((n, [, , d]) => n + d, 0);
  const out = [
    ...changed.map((p) => ` M ${p}`),
    '?? tests/weekly.test.ts',
    ...stats.map(([p, a, d]) => ` ${p.padEnd(w)} | ${String(a + d).padStart(nw)} ${'+'.repeat(a)}${'-'.repeat(d)}`),
    ` ${changed.length} files changed, ${ins} insertions(+), ${del} deletions(-)`
  ].join('\n');
  bashOk(main, calls[0], out, 60);
}
main.message(
  [
    text(`Here's a message covering both changes:

\`\`\`
Use local calendar dates instead of UTC in date helpers

todayISO() sliced the date out of toISOString(), which is the UTC
date, while everything else works in local time. For part of every
day (20:00-24:00 on the Toronto CI runner) "today" was tomorrow, and
"treats today as zero days away" failed about one run in six.

- add localISODate() and build todayISO() on it
- markSent(): record the local day, so isDue() no longer sends a
  reminder twice on the same evening west of UTC
- weekKey(): format the local Sunday; east of UTC it returned the
  Saturday before
- tests: pin todayISO() at 00:30 and 23:30; new weekKey()/byWeek()
  tests

serialize.ts keeps its UTC sentDay on purpose: that is the API
contract.
\`\`\`

\`tests/weekly.test.ts\` is still untracked, so remember to \`git add\` it along with the four modified files.`)
  ],
  [1, 640, 44310, 331],
  [14400]
);
endTurn(PROMPT_4);

// ---------------------------------------------------------------------------------------------
// Write the folder.

if (agent.lines.length !== agentLines) throw new Error('subagent transcript changed after its report');
if (agentEnd <= agentStart) throw new Error('clock went backwards');

const files = {
  [`${SESSION_ID}.jsonl`]: main.text(),
  [`${SESSION_ID}/subagents/agent-${AGENT_ID}.jsonl`]: agent.text(),
  [`${SESSION_ID}/subagents/agent-${AGENT_ID}.meta.json`]: JSON.stringify({ agentType: 'Explore', description: AGENT_DESCRIPTION }),
  [`states/${SESSION_ID}.jsonl`]: states.map((s) => JSON.stringify(s)).join('\n') + '\n'
};
const README = `# The bundled sample session

A hand-written, **fictional** Claude Code session, laid out as a real \`~/.claude/projects/<project>\`
folder: no one's real data. \`npm start\` opens it at \`/?sample\`; the viewer fetches the files listed
in \`manifest.json\`.

The story (about 1 h 30, in four turns): a developer in Berlin asks Claude to fix a date test that
fails about one CI run in six on a runner in Toronto. Claude reads the code, reproduces the failure
under \`TZ=Pacific/Kiritimati\`, fixes \`todayISO()\` (it used the UTC date), adds a regression test and
reruns the suite; then delegates a search for other call sites to an Explore subagent; after a half
hour pause, asks a question (AskUserQuestion), checks MDN (WebFetch) and fixes two more bugs; and
finally writes a commit message.

| file | what it is |
| --- | --- |
| \`${SESSION_ID}.jsonl\` | the main transcript, in Claude Code 2.1.x line format |
| \`${SESSION_ID}/subagents/agent-${AGENT_ID}.jsonl\` | the Explore subagent's transcript |
| \`${SESSION_ID}/subagents/agent-${AGENT_ID}.meta.json\` | its sidecar (agent type, description) |
| \`states/${SESSION_ID}.jsonl\` | the state log: working / waiting spans, including the idle pause |

Everything here is generated by \`scripts/make-sample.mjs\` (fixed ids and timestamps, same bytes on
every run). Do not edit these files by hand; change the script and regenerate:

    node scripts/make-sample.mjs
`;

rmSync(OUT, { recursive: true, force: true });
const manifest = { files: Object.keys(files) };
for (const [rel, body] of [...Object.entries(files), ['manifest.json', JSON.stringify(manifest, null, 1) + '\n'], ['README.md', README]]) {
  const path = join(OUT, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}
console.log(`wrote ${Object.keys(files).length + 2} files to ${OUT}: ${main.lines.length} main lines, ${agent.lines.length} subagent lines, ${states.length} state rows`);
