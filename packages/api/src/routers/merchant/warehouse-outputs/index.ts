import { router } from '../../../trpc.ts';
import { csvExportProcedure } from './csv-export.ts';
import { labelsPdfProcedure } from './labels-pdf.ts';
import { listProcedure } from './list.ts';

export const merchantWarehouseOutputsRouter = router({
  list: listProcedure,
  csvExport: csvExportProcedure,
  labelsPdf: labelsPdfProcedure,
});
