import { type DistanceProvider, sandboxDistanceProvider } from '@commerce/bookings';

/** The sandbox distance provider, counting its calls, down while a test sets `state.isDown` (an outage). */
export function switchableDistance(): {
  provider: DistanceProvider;
  state: { isDown: boolean; calls: number };
} {
  const state = { isDown: false, calls: 0 };
  const provider: DistanceProvider = {
    kind: 'sandbox',
    async distance(request) {
      state.calls += 1;
      if (state.isDown) throw new Error('connect ECONNREFUSED');
      return sandboxDistanceProvider.distance(request);
    },
  };
  return { provider, state };
}
