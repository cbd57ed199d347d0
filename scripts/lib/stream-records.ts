// Reads one file from disk into FileRecords by streaming its bytes through the model's
// RecordReader in fixed-size chunks, never as one string (the same path the worker takes with
// File.stream()).
import { createReadStream } from 'node:fs';
import { RecordReader } from '../../src/lib/model/index.ts';
import type { FileRecords } from '../../src/lib/model/index.ts';

export const DEFAULT_CHUNK = 1 << 20;

export async function streamRecords(path: string, label = path, chunkSize = DEFAULT_CHUNK): Promise<FileRecords> {
	const reader = new RecordReader(label);
	for await (const chunk of createReadStream(path, { highWaterMark: chunkSize })) reader.push(chunk as Buffer);
	return reader.finish();
}
