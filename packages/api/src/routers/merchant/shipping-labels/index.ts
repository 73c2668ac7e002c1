import { router } from '../../../trpc.ts';
import { getPurchaseProcedure } from './get-purchase.ts';
import { listPurchasesProcedure } from './list-purchases.ts';
import { purchaseProcedure } from './purchase.ts';
import { quoteProcedure } from './quote.ts';
import { reconcilePurchaseProcedure } from './reconcile-purchase.ts';

export const merchantShippingLabelsRouter = router({
  quote: quoteProcedure,
  purchase: purchaseProcedure,
  listPurchases: listPurchasesProcedure,
  getPurchase: getPurchaseProcedure,
  reconcilePurchase: reconcilePurchaseProcedure,
});
