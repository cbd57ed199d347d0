// `npm run verify:usage -- DIR [--rows N]`: history usage against ccusage 20.0.24 on a
// `~/.claude/projects`-like DIR (scripts/lib/verify-usage.ts does the work). Prints the
// side-by-side table by day, session and 5-hour block in UTC. Exit 1 when any row's token
// counts differ, 2 on bad usage; cost differences are listed with what explains them.
import { existsSync, statSync } from 'node:fs';
import { formatVerification, verifyUsage } from './lib/verify-usage.ts';

async function main(argv: string[]): Promise<number> {
  const dir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--rows');
  const r = argv.indexOf('--rows');
  const maxRows = r >= 0 ? Number(argv[r + 1]) : 40;
  if (!dir || !existsSync(dir) || !statSync(dir).isDirectory()) {
    process.stderr.write('usage: npm run verify:usage -- DIR [--rows N]   (DIR: a ~/.claude/projects-like folder)\n');
    return 2;
  }
  const v = await verifyUsage(dir);
  process.stdout.write(formatVerification(v, { maxRows }) + '\n');
  return v.tokenMismatches ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`verify:usage: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  }
);
