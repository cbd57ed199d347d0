// The chat zoom's components: ChatList (virtualized, the one the page mounts) and Row (one row,
// also used recursively for subagent transcripts), plus the expand-key convention they share.
export { default as ChatList } from './ChatList.svelte';
export { default as Row } from './Row.svelte';
export { isOpen, toggleKey } from './ui';
