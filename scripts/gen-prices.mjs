// `node scripts/gen-prices.mjs`: writes src/lib/view/usage/prices.data.json, the price table Loupe
// bundles so costs work offline. The facts come from @pydantic/genai-prices (a maintained, MIT
// price list; a pinned devDependency): its Anthropic provider — every Claude model with its
// match rule, context window, per-million-token prices (cache reads, 5-minute and 1-hour cache
// writes), long-context tiers and dated price changes. Only that data is kept: the package's
// 830 kB bundle (every provider, a calculator, an updater) never reaches the page.
// The source date is the publish date of the package version, read from the npm registry.
// Re-run after `npm install --save-exact --save-dev @pydantic/genai-prices@<newer>`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProvider } from '@pydantic/genai-prices';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');
// The package does not export its package.json; read it from node_modules.
const pkgPath = resolve(REPO, 'node_modules/@pydantic/genai-prices/package.json');
const { version } = JSON.parse(readFileSync(pkgPath, 'utf8'));

function publishDate() {
  const i = process.argv.indexOf('--date');
  if (i >= 0) return process.argv[i + 1];
  const r = spawnSync('npm', ['view', `@pydantic/genai-prices@${version}`, 'time', '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('npm view failed; pass --date YYYY-MM-DD');
  return JSON.parse(r.stdout)[version].slice(0, 10);
}

const provider = findProvider({ providerId: 'anthropic' });
if (!provider) throw new Error('the package has no anthropic provider');
const models = provider.models.map((m) => ({
  id: m.id,
  name: m.name ?? m.id,
  match: m.match,
  contextWindow: m.context_window ?? null,
  prices: m.prices
}));
const out = {
  source: `@pydantic/genai-prices@${version} (https://github.com/pydantic/genai-prices), provider "anthropic"`,
  sourceDate: publishDate(),
  models
};
const file = resolve(REPO, 'src/lib/view/usage/prices.data.json');
writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${models.length} models (${out.sourceDate}) to ${file}`);
