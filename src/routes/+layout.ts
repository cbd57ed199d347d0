// The whole app is a client-side shell: prerender an empty index.html, render in the browser.
export const prerender = true;
export const ssr = false;
