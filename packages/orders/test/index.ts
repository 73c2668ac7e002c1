export { createOrderTenant, ORDER_STATUS_EFFECTS, type OrderTenant, TEST_EMAIL_CONFIG } from './orders.ts';
