export { signInForTest } from './factories.ts';
