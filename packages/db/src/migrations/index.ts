import type { Migration } from 'kysely';
import * as foundation from './2026_11_23_0001_foundation.ts';
import * as administration from './2026_11_23_0002_administration.ts';
import * as catalog from './2026_11_23_0003_catalog.ts';
import * as stockNotifications from './2026_11_23_0004_stock_notifications.ts';
import * as orders from './2026_11_23_0005_orders.ts';
import * as payments from './2026_11_23_0006_payments.ts';
import * as checkout from './2026_11_23_0007_checkout.ts';
import * as customers from './2026_11_23_0008_customers.ts';
import * as returns from './2026_11_23_0009_returns.ts';
import * as retentionIndexes from './2026_11_23_0010_retention_indexes.ts';
import * as cancelledOrderPayments from './2026_11_26_0011_cancelled_order_payments.ts';
import * as checkoutIntegrity from './2026_11_26_0012_checkout_integrity.ts';
import * as bookings from './2026_11_26_0015_bookings.ts';
import * as bookingRecords from './2026_11_26_0016_booking_records.ts';
import * as bookingPayments from './2026_11_26_0017_booking_payments.ts';
import * as bookingHoldCustomers from './2026_11_26_0019_booking_hold_customers.ts';
import * as capacityCheck from './2026_11_26_0020_capacity_check.ts';
import * as boxPresets from './2026_11_26_0021_box_presets.ts';
import * as fulfillments from './2026_11_26_0022_fulfillments.ts';
import * as fulfillmentEdges from './2026_11_26_0023_fulfillment_edges.ts';
import * as carrier from './2026_11_26_0024_carrier.ts';
import * as labelArtifacts from './2026_11_26_0025_label_artifacts.ts';
import * as labelPurchasesAndCancellations from './2026_11_26_0026_label_purchases_and_cancellations.ts';
import * as warehouseOutputs from './2026_11_26_0027_warehouse_outputs.ts';
import * as hostedLookups from './2026_11_26_0028_hosted_lookups.ts';
import * as checkoutShippingAddress from './2026_11_26_0029_checkout_shipping_address.ts';
import * as bookingAbuseLimits from './2026_11_28_0031_booking_abuse_limits.ts';
import * as bookingLinkExpiryIndex from './2026_11_29_0032_booking_link_expiry_index.ts';
import * as webhooks from './2026_11_29_0100_webhooks.ts';
import * as tenantChangeNotices from './2026_11_29_0300_tenant_change_notices.ts';
import * as itemLowStockThreshold from './2026_11_29_0400_item_low_stock_threshold.ts';

/** Every migration in order. Bundled builds have no migration folder to scan, so they are listed here. */
export const migrations: Record<string, Migration> = {
  '2026_11_23_0001_foundation': foundation,
  '2026_11_23_0002_administration': administration,
  '2026_11_23_0003_catalog': catalog,
  '2026_11_23_0004_stock_notifications': stockNotifications,
  '2026_11_23_0005_orders': orders,
  '2026_11_23_0006_payments': payments,
  '2026_11_23_0007_checkout': checkout,
  '2026_11_23_0008_customers': customers,
  '2026_11_23_0009_returns': returns,
  '2026_11_23_0010_retention_indexes': retentionIndexes,
  '2026_11_26_0011_cancelled_order_payments': cancelledOrderPayments,
  '2026_11_26_0012_checkout_integrity': checkoutIntegrity,
  '2026_11_26_0015_bookings': bookings,
  '2026_11_26_0016_booking_records': bookingRecords,
  '2026_11_26_0017_booking_payments': bookingPayments,
  '2026_11_26_0019_booking_hold_customers': bookingHoldCustomers,
  '2026_11_26_0020_capacity_check': capacityCheck,
  '2026_11_26_0021_box_presets': boxPresets,
  '2026_11_26_0022_fulfillments': fulfillments,
  '2026_11_26_0023_fulfillment_edges': fulfillmentEdges,
  '2026_11_26_0024_carrier': carrier,
  '2026_11_26_0025_label_artifacts': labelArtifacts,
  '2026_11_26_0026_label_purchases_and_cancellations': labelPurchasesAndCancellations,
  '2026_11_26_0027_warehouse_outputs': warehouseOutputs,
  '2026_11_26_0028_hosted_lookups': hostedLookups,
  '2026_11_26_0029_checkout_shipping_address': checkoutShippingAddress,
  '2026_11_28_0031_booking_abuse_limits': bookingAbuseLimits,
  '2026_11_29_0032_booking_link_expiry_index': bookingLinkExpiryIndex,
  '2026_11_29_0100_webhooks': webhooks,
  '2026_11_29_0300_tenant_change_notices': tenantChangeNotices,
  '2026_11_29_0400_item_low_stock_threshold': itemLowStockThreshold,
};
