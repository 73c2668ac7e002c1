import { router } from '../../../trpc.ts';
import { performProcedure } from './perform.ts';
import { previewProcedure } from './preview.ts';

export const customerActionsRouter = router({
  preview: previewProcedure,
  perform: performProcedure,
});
