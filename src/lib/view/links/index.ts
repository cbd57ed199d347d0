// Public surface of links: the URL fragment (#s=…&a=…&t=…&z=…) and the share payload (z=).
export * from './fragment.ts';
export * from './share.ts';
