export { createTestDatabase, testDatabaseKind } from './database.ts';
