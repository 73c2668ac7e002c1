export interface Periodic {
  /** True once `stop()` was called: a long run can check it between batches. */
  readonly stopped: boolean;
  /** Stops scheduling, and waits for the run in progress (if any) to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, the first run one interval after the call,
 * never two runs at once: the next interval starts when a run ends. A run
 * that throws is reported to `onError`, and the schedule goes on.
 */
export function runPeriodically(
  task: () => Promise<unknown>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): Periodic {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = task()
      .catch(options.onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  timer = setTimeout(tick, options.intervalMs);
  return {
    get stopped() {
      return stopped;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
