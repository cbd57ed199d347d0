import { describe, expect, it } from 'vitest';
import { parseGithubTree, parseHtmlIndex, parseJsonIndex, parseManifest, parseS3List } from './listing.ts';

const DIR = 'http://127.0.0.1:8080/p/projects/';

describe('parseJsonIndex', () => {
	it('reads nginx autoindex_format json: files with sizes and mtimes, folders as URLs', () => {
		const text = JSON.stringify([
			{ name: '-home-u-app', type: 'directory', mtime: 'Mon, 07 Dec 2026 10:00:00 GMT' },
			{ name: 'a b.jsonl', type: 'file', mtime: 'Mon, 07 Dec 2026 10:00:00 GMT', size: 42 },
			{ name: 'link', type: 'other', mtime: 'x' }
		]);
		const l = parseJsonIndex(text, DIR)!;
		expect(l.dirs).toEqual([{ name: '-home-u-app', url: `${DIR}-home-u-app/` }]);
		expect(l.files).toEqual([{ name: 'a b.jsonl', url: `${DIR}a%20b.jsonl`, size: 42, version: 'Mon, 07 Dec 2026 10:00:00 GMT' }]);
	});

	it("reads Caddy's browse JSON", () => {
		const l = parseJsonIndex(JSON.stringify([{ name: 'sub/', is_dir: true, size: 0, url: './sub/' }, { name: 'x.jsonl', is_dir: false, size: 7, mod_time: '2026-12-07T10:00:00Z' }]), DIR)!;
		expect(l.dirs.map((d) => d.name)).toEqual(['sub']);
		expect(l.files[0]).toMatchObject({ name: 'x.jsonl', size: 7, version: '2026-12-07T10:00:00Z' });
	});

	it('refuses names that climb out or hide a separator', () => {
		const l = parseJsonIndex(JSON.stringify([{ name: '..', type: 'directory' }, { name: 'a/b.jsonl', type: 'file', size: 1 }, { name: 'a%2Fb.jsonl', type: 'file', size: 1 }, { name: 'ok.jsonl', type: 'file', size: 1 }]), DIR)!;
		expect(l.refused).toEqual(['..', 'a/b.jsonl', 'a%2Fb.jsonl']);
		expect(l.files.map((f) => f.name)).toEqual(['ok.jsonl']);
		expect(l.dirs).toEqual([]);
	});

	it('is null for what is not a listing', () => {
		expect(parseJsonIndex('<html>', DIR)).toBeNull();
		expect(parseJsonIndex('{"a":1}', DIR)).toBeNull();
		expect(parseJsonIndex('[1,2]', DIR)).toBeNull();
	});
});

describe('parseHtmlIndex', () => {
	it('reads an nginx HTML autoindex: entries one level down, the parent link left out', () => {
		const html = `<html><head><title>Index of /p/projects/</title></head><body><h1>Index of /p/projects/</h1><hr><pre><a href="../">../</a>
<a href="-home-u-app/">-home-u-app/</a>                                        07-Dec-2026 10:00                   -
<a href="s%201.jsonl">s 1.jsonl</a>                                          07-Dec-2026 10:00                 123
</pre><hr></body></html>`;
		const l = parseHtmlIndex(html, DIR);
		expect(l.dirs).toEqual([{ name: '-home-u-app', url: `${DIR}-home-u-app/` }]);
		expect(l.files).toEqual([{ name: 's 1.jsonl', url: `${DIR}s%201.jsonl`, size: null, version: null }]);
		expect(l.refused).toEqual([]);
	});

	it("reads Apache's and python http.server's: sort links, absolute paths and other hosts are not entries", () => {
		const html = `<!DOCTYPE HTML><html><body><table><tr><th><a href="?C=N;O=D">Name</a></th></tr>
<tr><td><a href="/p/">Parent Directory</a></td></tr>
<tr><td><a href='/p/projects/x.jsonl'>x.jsonl</a></td></tr>
<tr><td><a href=y.jsonl>y.jsonl</a></td></tr>
<tr><td><a href="https://evil.example/z.jsonl">z</a></td></tr>
<tr><td><a class="k" href="a&amp;b.jsonl">a&amp;b</a></td></tr></table>
<ul><li><a href="deep/er/c.jsonl">c</a></li></ul></body></html>`;
		const l = parseHtmlIndex(html, DIR);
		expect(l.files.map((f) => f.name)).toEqual(['x.jsonl', 'y.jsonl', 'a&b.jsonl']);
		expect(l.dirs).toEqual([]);
		expect(l.refused).toEqual(['deep/er/c.jsonl']);
	});

	it('refuses encoded slashes and dot-dot; a script in the listing is only text', () => {
		const html = `<html><body><script>window.pwned = 1</script><a href="a%2F..%2Fb.jsonl">x</a><a href="..%2fsecret.jsonl">y</a><a href="%2e%2e/">up</a><a href="ok.jsonl">ok</a></body></html>`;
		const l = parseHtmlIndex(html, DIR);
		expect(l.files.map((f) => f.name)).toEqual(['ok.jsonl']);
		expect(l.refused).toEqual(['a%2F..%2Fb.jsonl', '..%2fsecret.jsonl']);
		expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
	});
});

describe('parseS3List', () => {
	const page = (keys: string[], next?: string) =>
		`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>p/</Prefix>${keys
			.map((k, i) => `<Contents><Key>${k}</Key><LastModified>2026-12-07T10:00:00.000Z</LastModified><ETag>&quot;e${i}&quot;</ETag><Size>${10 + i}</Size></Contents>`)
			.join('')}<IsTruncated>${next ? 'true' : 'false'}</IsTruncated>${next ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}</ListBucketResult>`;

	it('reads keys, sizes, ETags and the continuation token', () => {
		const p = parseS3List(page(['p/a.jsonl', 'p/x &amp; y.jsonl'], 'tok+1=='));
		expect(p).toEqual({ objects: [{ key: 'p/a.jsonl', size: 10, version: '"e0"' }, { key: 'p/x & y.jsonl', size: 11, version: '"e1"' }], next: 'tok+1==' });
		expect(parseS3List(page(['p/a.jsonl']))).toMatchObject({ next: null });
	});

	it('gives an S3 error its code and message, and null for anything else', () => {
		expect(parseS3List('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>')).toEqual({ error: 'AccessDenied: Access Denied' });
		expect(parseS3List('<html>hi</html>')).toBeNull();
	});
});

describe('parseGithubTree', () => {
	it('keeps blobs only, and says when GitHub truncated the tree', () => {
		const t = parseGithubTree(JSON.stringify({ sha: 's', truncated: true, tree: [{ path: 'a', type: 'tree', sha: '1' }, { path: 'a/b.jsonl', type: 'blob', sha: '2', size: 5 }, { path: 'm', type: 'commit', sha: '3' }] }));
		expect(t).toEqual({ blobs: [{ path: 'a/b.jsonl', size: 5, sha: '2' }], truncated: true });
		expect(parseGithubTree('{"message":"Not Found"}')).toBeNull();
	});
});

describe('parseManifest', () => {
	it('reads paths and sizes, refusing paths that climb out', () => {
		const m = parseManifest(JSON.stringify({ files: [{ path: 'p/a.jsonl', size: 3, modified: '2026-12-07T10:00:00Z' }, { path: '../x.jsonl', size: 1 }, { path: '/etc/passwd', size: 1 }, { path: 'p\\b.jsonl', size: 1 }, { path: 'q.jsonl' }] }));
		expect(m).toEqual({ files: [{ path: 'p/a.jsonl', size: 3, version: '2026-12-07T10:00:00Z' }], refused: ['../x.jsonl', '/etc/passwd', 'p\\b.jsonl'] });
		expect(parseManifest('[]')).toBeNull();
	});
});
