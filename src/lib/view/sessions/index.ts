// Public surface of the session-list projections (sort, filter, projects).
export * from './list.ts';
