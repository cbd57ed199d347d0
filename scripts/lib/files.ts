// Every file under a folder, in name order: the fixtures walk the model and ingest tests share.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
	return readdirSync(dir)
		.sort()
		.flatMap((name) => {
			const p = join(dir, name);
			return statSync(p).isDirectory() ? filesUnder(p) : [p];
		});
}
