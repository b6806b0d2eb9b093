/** How long after the page's load event the shop waits before fetching what its first screen does not show. */
const SETTLE_MS = 3000;

/**
 * Runs `task` once the page has settled: its load event, a few seconds, then an idle moment. For
 * what the first screen does not show (the dialogs, the assistant's conversation): fetched and
 * compiled then, it never competes with the page's start on a phone's network and processor, and
 * a visitor who opens one sooner gets it fetched on the spot. Answers a function that cancels it.
 */
export function whenSettled(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const wait = () => {
    timer = setTimeout(() => {
      if (window.requestIdleCallback) idle = window.requestIdleCallback(task, { timeout: 5000 });
      else task();
    }, SETTLE_MS);
  };
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', wait, { once: true });
  return () => {
    window.removeEventListener('load', wait);
    clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback?.(idle);
  };
}
