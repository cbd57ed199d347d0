// The Markdown worker's client (markdown-client.ts): a block's source goes to the worker and comes
// back as the renderer's HTML, code highlighted; a worker that cannot load leaves the blocks it
// was asked for, and every later one, to this thread, with the same HTML. The fake worker serves
// what markdown.worker.ts serves over a real MessageChannel.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markdownToHtmlWithCode } from '../view/chat/markdown-html.ts';
import { servingWorker } from './fake-worker.ts';

const PROSE = 'Some **bold** text and a [link](https://example.com).';
const CODE = 'Before\n\n```ts\nconst answer: number = 42;\n```\n';

async function fresh() {
  vi.resetModules();
  return import('./markdown-client.ts');
}

/** Sources the fake Markdown worker was asked for. */
const asked: string[] = [];
/** A Worker serving what markdown.worker.ts serves, noting the sources it is asked for. */
const AnsweringWorker = servingWorker({ render: (src: string) => (asked.push(src), markdownToHtmlWithCode(src)) });

/** A Worker whose script does not load: an 'error' event after the first message, no answer ever. */
class FailingWorker extends EventTarget {
  static terminated = 0;
  postMessage(): void {
    setTimeout(() => this.dispatchEvent(new Event('error')), 5);
  }
  terminate(): void {
    FailingWorker.terminated++;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Markdown worker client', () => {
  it('renders in one worker, code highlighted, the same HTML as the renderer', async () => {
    vi.stubGlobal('Worker', AnsweringWorker);
    const { markdownHtml, markdownStats } = await fresh();
    const [prose, code] = await Promise.all([markdownHtml(PROSE), markdownHtml(CODE)]);
    expect(AnsweringWorker.made).toBe(1);
    expect(asked).toEqual([PROSE, CODE]);
    expect(prose).toContain('<strong>bold</strong>');
    expect(code).toContain('class="hljs language-typescript"');
    expect(code).toContain('<span class="hljs-keyword">const</span>');
    expect([prose, code]).toEqual([await markdownToHtmlWithCode(PROSE), await markdownToHtmlWithCode(CODE)]);
    expect(markdownStats()).toEqual({ inWorker: 2, onPage: 0, failed: false });
  });

  it('warmMarkdown starts the worker before any block, and the first block goes to that one', async () => {
    vi.stubGlobal('Worker', AnsweringWorker);
    const before = AnsweringWorker.made;
    const { markdownHtml, warmMarkdown, markdownStats } = await fresh();
    warmMarkdown();
    expect(AnsweringWorker.made).toBe(before + 1);
    warmMarkdown();
    expect(await markdownHtml(PROSE)).toContain('<strong>bold</strong>');
    expect(AnsweringWorker.made).toBe(before + 1);
    expect(markdownStats()).toEqual({ inWorker: 1, onPage: 0, failed: false });
  });

  it('renders on this thread when the worker cannot load: the blocks asked, then every later one', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { markdownHtml, markdownStats } = await fresh();
    const rendered = await Promise.all([markdownHtml(PROSE), markdownHtml(CODE)]);
    expect(rendered).toEqual([await markdownToHtmlWithCode(PROSE), await markdownToHtmlWithCode(CODE)]);
    expect(FailingWorker.terminated).toBe(1);
    expect(await markdownHtml('# Later')).toContain('<h1>Later</h1>');
    expect(markdownStats()).toEqual({ inWorker: 0, onPage: 3, failed: true });
    expect(FailingWorker.terminated).toBe(1); // no second worker was started
  });

  it('renders on this thread where there is no Worker', async () => {
    vi.stubGlobal('Worker', undefined);
    const { markdownHtml, markdownStats } = await fresh();
    expect(await markdownHtml(PROSE)).toBe(await markdownToHtmlWithCode(PROSE));
    expect(markdownStats()).toEqual({ inWorker: 0, onPage: 1, failed: false });
  });
});
