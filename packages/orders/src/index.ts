export * from './checkout/index.ts';
export * from './fulfillments/index.ts';
export * from './orders/index.ts';
export * from './return-actions/index.ts';
export * from './returns/index.ts';
export * from './sales-records/record-sale.ts';
export * from './tax/index.ts';
