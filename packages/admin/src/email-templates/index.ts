export type { EmailTemplateScope } from './email-template-read.ts';
export * from './list-email-templates.ts';
export { previewEmailTemplate } from './preview-email-template.ts';
export * from './schemas.ts';
export * from './send-test-email-template.ts';
export * from './update-email-template.ts';
