export * from './moderate-reviews.ts';
export * from './public-reviews.ts';
export * from './review-read.ts';
export * from './schemas.ts';
export * from './verified-purchase.ts';
