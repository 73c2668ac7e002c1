export * from './organizations/create-organization.ts';
export * from './organizations/find-organization.ts';
export * from './organizations/schemas.ts';
export * from './organizations/seed-demo.ts';
