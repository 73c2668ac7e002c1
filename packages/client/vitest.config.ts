import { testConfig } from '@commerce/vitest-config';

export default testConfig();
