/** The loading bar's timing, kept apart from the DOM wiring. Numbers are the shop's spec. */
export const LOADING_BAR = {
  color: '#8200FF',
  errorColor: '#DC2626',
  throttle: 200,
  duration: 2000,
  hideDelay: 500,
  resetDelay: 400,
  /** A navigation still pending after this long did not happen (a download, a 204, a failure). */
  giveUpAfter: 15000,
} as const;

export function createLoadingBar(el: HTMLElement, opts = LOADING_BAR) {
  let progress = 0;
  let throttleTimer: ReturnType<typeof setTimeout> | undefined;
  let tick: ReturnType<typeof setInterval> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const step = 10000 / opts.duration; // percent per 100 ms tick: 100 % after `duration`

  const render = () => {
    el.style.transform = `scaleX(${progress / 100})`;
  };
  const clearAll = () => {
    clearTimeout(throttleTimer);
    clearTimeout(hideTimer);
    clearTimeout(giveUp);
    clearInterval(tick);
  };

  function start() {
    clearAll();
    progress = 0;
    el.style.background = opts.color;
    render();
    throttleTimer = setTimeout(() => {
      el.style.opacity = '1';
      el.dataset.state = 'loading';
      tick = setInterval(() => {
        // Slow down near the end: the bar never claims done before the page is.
        progress = Math.min(95, progress + step * (1 - progress / 110));
        render();
      }, 100);
    }, opts.throttle);
    giveUp = setTimeout(() => finish({ error: true }), opts.giveUpAfter);
  }

  function finish({ error = false } = {}) {
    clearAll();
    if (error) el.style.background = opts.errorColor;
    el.dataset.state = error ? 'error' : 'done';
    progress = 100;
    render();
    if (error) el.style.opacity = '1';
    hideTimer = setTimeout(() => {
      el.style.opacity = '0';
      hideTimer = setTimeout(() => {
        progress = 0;
        render();
        el.style.background = opts.color;
        delete el.dataset.state;
      }, opts.resetDelay);
    }, opts.hideDelay);
  }

  return { start, finish };
}
