// Public surface of the model layer: the contract in /tmp/loupe-api.md. Everything the
// ingest layer, the worker and the Node scripts need is re-exported from here.
export type * from './types.ts';
export { RecordReader, readRecords } from './reader.ts';
export { buildSession } from './build.ts';
export { segmentsOf } from './segments.ts';
export { pyStrip } from './pystr.ts';
export { sha1Hex } from './sha1.ts';
