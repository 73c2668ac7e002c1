export { SHIP_TO } from './labels.ts';
export { labelPdf, pdfPageCount, seedLabel } from './warehouse.ts';
