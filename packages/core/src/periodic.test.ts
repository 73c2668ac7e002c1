import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPeriodically } from './periodic.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('runPeriodically', () => {
  it('runs one interval after the start, then one interval after each run ends', async () => {
    const starts: number[] = [];
    let finish: () => void = () => {};
    const task = () => {
      starts.push(Date.now());
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    };
    const started = Date.now();
    const periodic = runPeriodically(task, { intervalMs: 1000, onError: () => {} });
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([started + 1000]);
    // A slow run is never overlapped.
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([started + 1000, started + 7000]);
    finish();
    await periodic.stop();
  });

  it('reports a failed run and keeps the schedule', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const periodic = runPeriodically(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('database down');
      },
      { intervalMs: 100, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(2);
    expect(errors).toEqual([new Error('database down')]);
    await periodic.stop();
  });

  it('stops scheduling, waits for the run in progress, and says it is stopping', async () => {
    let finish: () => void = () => {};
    let runs = 0;
    let sawStopped = false;
    const periodic = runPeriodically(
      () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finish = () => {
            sawStopped = periodic.stopped;
            resolve();
          };
        });
      },
      { intervalMs: 100, onError: () => {} },
    );
    await vi.advanceTimersByTimeAsync(100);
    let stopped = false;
    const stopping = periodic.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(sawStopped).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
  });
});
