// Element sizes for what is laid out by arithmetic (virtualized lists, charts), from a
// ResizeObserver only. bind:clientHeight also reads the size once when the element mounts, which
// forces a synchronous style and layout inside the mounting task (40–50 ms for the first screen of a big drop: fonts, a fresh layout tree); the
// observer reports the same size right after the browser's own layout of that frame, as a
// separate, short step.

function observed(prop: 'clientWidth' | 'clientHeight', set: (px: number) => void): (el: HTMLElement) => () => void {
  return (el) => {
    const ro = new ResizeObserver(() => set(el[prop]));
    ro.observe(el);
    return () => ro.disconnect();
  };
}

/** `{@attach clientHeight((h) => (height = h))}`: the element's clientHeight, each time it changes. */
export const clientHeight = (set: (px: number) => void) => observed('clientHeight', set);

/** `{@attach clientWidth((w) => …)}`: the element's clientWidth, each time it changes. */
export const clientWidth = (set: (px: number) => void) => observed('clientWidth', set);
