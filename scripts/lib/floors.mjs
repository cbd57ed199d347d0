// The floors every benchmark divides by, defined once. A floor is the least a browser tool (or a
// Node parser) must spend on the same input, measured with nothing of Loupe running: in the
// browser, a fresh context whose one page is a bare document served at FLOOR_PATH (Playwright
// answers it; no Loupe script, no worker of Loupe's), holding the tree in a folder input.
//
//   parse floor  one worker: `await file.text()` of every .jsonl file, split on "\n", JSON.parse
//                of each line: what any viewer that reads everything must do.
//   read floor   two workers, each `await file.arrayBuffer()` of half the .jsonl files (balanced
//                by size): the least any browser tool can spend to see every byte.
//   Node model floor  (nodeParseFloor) the 100 MB session's chunks decoded, cut at each "\n",
//                JSON.parse of each line: what `npm run bench` divides the model by.
//
// Benches measure floors and runs interleaved (floor, run, floor, run), so a machine that slows
// down between them moves both, and print the floors beside their ratios.

/** A page of the bench's own origin with no Loupe in it. */
export const FLOOR_PATH = '/__floor';
const FLOOR_HTML = '<!doctype html><meta charset="utf-8"><title>floor</title><input id="folder" type="file" multiple webkitdirectory><input id="files" type="file" multiple>';

/** A fresh context's bare page holding `input` (a folder's path, or a list of files) in a file
 *  input, and that input's selector; close its context when done. */
export async function floorPage(browser, base, input) {
  const context = await browser.newContext();
  await context.route(`${base}${FLOOR_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: FLOOR_HTML }));
  const page = await context.newPage();
  await page.goto(`${base}${FLOOR_PATH}`);
  const selector = Array.isArray(input) ? '#files' : '#folder';
  await page.locator(selector).setInputFiles(input);
  return { page, selector };
}

/** The browser floors of `input` (a folder or a list of files), each in its own fresh context:
 *  { parseMs, readMs, bytes, files }; `which` picks them (default both). */
export async function browserFloors(browser, base, input, which = ['read', 'parse']) {
  const out = {};
  for (const [name, fn] of [['readMs', readFloorInPage], ['parseMs', parseFloorInPage]].filter(([n]) => which.includes(n.slice(0, -2)))) {
    const { page, selector } = await floorPage(browser, base, input);
    const r = await page.evaluate(fn, selector);
    Object.assign(out, { [name]: Math.round(r.ms), bytes: r.bytes, files: r.files });
    await page.context().close();
  }
  return out;
}

/** Runs in the floor page: one worker reads each .jsonl file as text and JSON.parses every line. */
export async function parseFloorInPage(selector) {
  const files = [...document.querySelector(selector).files].filter((f) => f.name.endsWith('.jsonl'));
  const src = `onmessage = async (e) => {
    const t0 = performance.now();
    for (const file of e.data) {
      const text = await file.text();
      for (const line of text.split('\\n')) if (line) { try { JSON.parse(line); } catch {} }
    }
    postMessage(performance.now() - t0);
  }`;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  const ms = await new Promise((r) => { w.onmessage = (e) => r(e.data); w.postMessage(files); });
  w.terminate();
  return { ms, files: files.length, bytes: files.reduce((n, f) => n + f.size, 0) };
}

/** Runs in the floor page: two workers each read half the .jsonl files' bytes (balanced by size). */
export async function readFloorInPage(selector) {
  const files = [...document.querySelector(selector).files].filter((f) => f.name.endsWith('.jsonl'));
  const halves = [[], []];
  const load = [0, 0];
  for (const f of [...files].sort((a, b) => b.size - a.size)) {
    const i = load[0] <= load[1] ? 0 : 1;
    halves[i].push(f);
    load[i] += f.size;
  }
  const src = `onmessage = async (e) => {
    let n = 0;
    for (const file of e.data) n += (await file.arrayBuffer()).byteLength;
    postMessage(n);
  }`;
  const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
  const workers = halves.map(() => new Worker(url));
  const t0 = performance.now();
  await Promise.all(workers.map((w, i) => new Promise((r) => { w.onmessage = r; w.postMessage(halves[i]); })));
  const ms = performance.now() - t0;
  for (const w of workers) w.terminate();
  return { ms, files: files.length, bytes: load[0] + load[1] };
}

/**
 * The Node model floor: chunks decoded, cut at each "\n" with indexOf (a line split across
 * chunks joined once), JSON.parse of each non-empty line. The fastest simple splitter found:
 * `(carry + text).split('\n')` was ~1.7× slower and would flatter the model.
 */
export async function nodeParseFloor(files, source) {
  let parsed = 0;
  const parse = (line) => {
    if (line.length > 0 && line !== '\r') {
      JSON.parse(line);
      parsed++;
    }
  };
  for (const file of files) {
    const decoder = new TextDecoder();
    let pending = [];
    const eat = (text) => {
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (pending.length) {
          pending.push(text.slice(start, nl));
          parse(pending.join(''));
          pending = [];
        } else parse(text.slice(start, nl));
        start = nl + 1;
      }
      if (start < text.length) pending.push(text.slice(start));
    };
    for await (const buf of source(file)) eat(decoder.decode(buf, { stream: true }));
    eat(decoder.decode());
    if (pending.length) parse(pending.join(''));
  }
  return parsed;
}

/** The verdict table every bench ends with: one row per target. */
export class Verdicts {
  rows = [];
  /** `value` as measured, `target` as the goal reads, `pass` whether it holds. */
  add(measure, value, target, pass) {
    this.rows.push({ measure, value: String(value), target: String(target), verdict: pass ? 'PASS' : 'MISS' });
    return pass;
  }
  print(title = 'verdicts') {
    if (!this.rows.length) return;
    const w = (k) => Math.max(k.length, ...this.rows.map((r) => r[k].length));
    const [a, b, c] = [w('measure'), w('value'), w('target')];
    console.log(`\n${title}`);
    console.log(`${'measure'.padEnd(a)}  ${'value'.padEnd(b)}  ${'target'.padEnd(c)}  verdict`);
    for (const r of this.rows) console.log(`${r.measure.padEnd(a)}  ${r.value.padEnd(b)}  ${r.target.padEnd(c)}  ${r.verdict}`);
    const missed = this.rows.filter((r) => r.verdict === 'MISS').length;
    console.log(`${this.rows.length - missed} PASS, ${missed} MISS`);
  }
}
