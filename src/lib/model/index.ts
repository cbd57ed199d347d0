// Public surface of the model layer: the Session / Turn / Atom types, RecordReader, buildSession,
// IncrementalBuilder (files that grow) and segmentsOf, plus the small pure helpers other layers
// reuse (atom text, opener test, Python-compatible strip, SHA-1, timestamp parsing).
export type * from './types.ts';
export { RecordReader, readRecords, utf8Length } from './reader.ts';
export { buildSession } from './build.ts';
export { changedTurnIndices, IncrementalBuilder } from './incremental.ts';
export type { AppendRole, BuildChange } from './incremental.ts';
export { segmentsOf } from './segments.ts';
export { atomText, isOpener } from './turns.ts';
export { blocksText, deriveAuthor, postalPairs, stripAnsi } from './text.ts';
export { pyStrip, pySplit } from './pystr.ts';
export { sha1Hex } from './sha1.ts';
export { parseTimestamp } from './timestamp.ts';

/** Bump when the model's output changes shape or meaning, so caches of parsed sessions expire. */
export const MODEL_VERSION = 'loupe-model-4';
