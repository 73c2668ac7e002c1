import type { CheckoutLineType, ItemType } from '@commerce/db';

/**
 * The line type an item's type gives to a cart, order or sales-record line: a
 * SALE item is a PRODUCT line, a SERVICE item a SERVICE line; a RENTAL is booked, never
 * bought, so it has none.
 */
export function lineTypeOf(itemType: ItemType): CheckoutLineType | null {
  if (itemType === 'SALE') return 'PRODUCT';
  if (itemType === 'SERVICE') return 'SERVICE';
  return null;
}

/** The issue of a cart or order line naming a RENTAL item. */
export const RENTAL_LINE_MESSAGE = 'names a rental: rentals are booked through a booking service, not bought';
