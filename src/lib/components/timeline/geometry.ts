// The timeline component's geometry, kept out of the .svelte files so it is plain, testable
// TypeScript: coordinates and the view window (coords.ts), hit tests (hit.ts) and the draw model
// of a view (draw-model.ts).
export * from './coords.ts';
export * from './hit.ts';
export * from './draw-model.ts';
