export type { FakeStripe } from './fake-stripe.ts';
export { startFakeStripe } from './fake-stripe.ts';
