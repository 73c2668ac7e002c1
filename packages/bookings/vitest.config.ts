import { baseConfig } from '@commerce/vitest-config';

export default baseConfig;
