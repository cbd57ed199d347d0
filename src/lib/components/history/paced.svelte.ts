// A count that grows by one per frame up to a total: the history dashboard draws itself a step at
// a time with it (view/history/dashboard.ts drawPlan), each step in its own task after the frame
// before was painted, so its first draw never holds the main thread for long (issue 22).

export function paced(total: () => number): { readonly n: number } {
  let n = $state(0);
  $effect(() => {
    if (n >= total()) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the frame (requestAnimationFrame runs just before it paints), in a task of its own.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => n++, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  });
  return {
    get n() {
      return n;
    }
  };
}
