import { router } from '../../../trpc.ts';
import { listProcedure } from './list.ts';
import { previewProcedure } from './preview.ts';
import { sendTestProcedure } from './send-test.ts';
import { updateProcedure } from './update.ts';

export const merchantEmailTemplatesRouter = router({
  list: listProcedure,
  update: updateProcedure,
  preview: previewProcedure,
  sendTest: sendTestProcedure,
});
