/**
 * The fixed set of transactional email template types (docs/notifications.md
 * "Email templates") with, for each, its default copy, the merge variables its
 * copy may use and the system parts a merchant cannot change: the
 * call-to-action link, the unsubscribe link and the compliance footer.
 */
export const EMAIL_TEMPLATE_TYPES = [
  'CUSTOMER_AUTH',
  'ORDER_CONFIRMATION',
  'ABANDONED_CART_RECOVERY',
  'BACK_IN_STOCK',
  'STOCK_NOTIFICATION_CONFIRMATION',
  'NEWSLETTER_CONFIRMATION',
  'RETURN_REQUESTED',
  'RETURN_APPROVED',
  'RETURN_RECEIVED',
  'RETURN_COMPLETED',
  'RETURN_REJECTED',
  'COMMERCE_QUOTE_SEND',
  'COMMERCE_INVOICE_SEND',
  'COMMERCE_CONTRACT_SEND',
  'COMMERCE_CONTRACT_COUNTERSIGNED',
  'COMMERCE_CONTRACT_VOIDED',
  'COMMERCE_QUOTE_EXPIRED',
  'BOOKING_NOTIFICATION',
  'COMMERCE_PAYMENT_RECEIVED',
  'ORDER_SHIPPED',
  'SUBSCRIPTION_PAYMENT_RECOVERY',
] as const;

export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

export function isEmailTemplateType(value: string): value is EmailTemplateType {
  return (EMAIL_TEMPLATE_TYPES as readonly string[]).includes(value);
}

/**
 * A value the sender supplies when it sends the email. Every value is a
 * string the sender has already formatted (money in the order's currency,
 * dates in the store's locale), so templates need no filters.
 */
export interface MergeVariable {
  /** Dotted name used as `{{ name }}` in copy, e.g. `order.number`. */
  name: string;
  description: string;
  /** Used by the list's sample, preview and send-test. */
  sample: string;
}

/** The writable copy slots that may hold `{{ variable }}` outputs. */
export interface EmailTemplateCopy {
  subject: string;
  heading: string;
  bodyText: string;
  ctaLabel: string;
}

export interface EmailTemplateDefinition {
  type: EmailTemplateType;
  /** What the email is for, for the merchant's editor. */
  description: string;
  /** Default copy. The default sender name is the store's name and the default reply-to is none. */
  defaults: EmailTemplateCopy;
  variables: readonly MergeVariable[];
  /** Variables the resolved copy must keep somewhere (subject, heading or body), e.g. a sign-in code. */
  requiredVariables: readonly string[];
  /** The system call-to-action link, filled by the sender (`links.action`); never writable. */
  action: { description: string; samplePath: string };
  /** Sent because of a subscription or marketing consent: carries an unsubscribe link. */
  hasUnsubscribe: boolean;
}

const variable = (name: string, description: string, sample: string): MergeVariable => ({
  name,
  description,
  sample,
});

const ORGANIZATION_NAME = variable(
  'organization.name',
  "The store's name as customers see it: the business profile's display name, else the organization's name",
  'Acme Outfitters',
);
const CUSTOMER_NAME = variable('customer.name', "The customer's name", 'Ada Lovelace');
const ORDER_NUMBER = variable('order.number', "The order's display number", '1042');
const RETURN_ID = variable('return.id', "The return's identifier", 'ret_01JD8Z6V7Q3K2M4N5P6R7S8T9V');
const ITEM_NAME = variable('item.name', "The product's name", 'Trail Runner 2');
const VARIANT_NAME = variable('variant.name', "The variant's name", 'Size 42 / Blue');
const QUOTE_NUMBER = variable('quote.number', "The quote's number", 'Q-2031');
const QUOTE_EXPIRES_ON = variable(
  'quote.expiresOn',
  'The last day the quote is valid, formatted',
  'March 31, 2026',
);
const CONTRACT_TITLE = variable('contract.title', "The contract's title", 'Equipment rental agreement');
const PAYMENT_AMOUNT = variable('payment.amount', 'The amount, formatted in its currency', '$250.00');

const SAMPLE_ORDER_PATH = '/account/orders/or1_0123456789abcdef0123456789abcdef';

const RETURN_VARIABLES = [ORGANIZATION_NAME, CUSTOMER_NAME, ORDER_NUMBER, RETURN_ID] as const;
const RETURN_ACTION = {
  description: "The returns section of the customer's order page",
  samplePath: `${SAMPLE_ORDER_PATH}#returns`,
};

const DEFINITIONS: readonly EmailTemplateDefinition[] = [
  {
    type: 'CUSTOMER_AUTH',
    description: 'Customer sign-in: a single-use link and a one-time code.',
    defaults: {
      subject: 'Your sign-in code for {{ organization.name }}',
      heading: 'Sign in to {{ organization.name }}',
      bodyText:
        'Use this code to sign in: {{ auth.code }}\n\nIt works once and expires in {{ auth.expiresInMinutes }} minutes.\n\nIf you did not ask to sign in, you can ignore this email.',
      ctaLabel: 'Sign in',
    },
    variables: [
      ORGANIZATION_NAME,
      variable('auth.code', 'The one-time sign-in code', '482913'),
      variable('auth.expiresInMinutes', 'Minutes until the code and the link expire', '15'),
    ],
    requiredVariables: ['auth.code'],
    action: {
      description: 'The single-use sign-in link of a link sign-in; a code sign-in has no button',
      samplePath: '/account/verify?token=sample',
    },
    hasUnsubscribe: false,
  },
  {
    type: 'ORDER_CONFIRMATION',
    description: 'Sent when an order is placed.',
    defaults: {
      subject: 'Order {{ order.number }} confirmed',
      heading: 'Thank you for your order, {{ customer.name }}',
      bodyText:
        'We have received order {{ order.number }} ({{ order.itemCount }} items, {{ order.total }}) and will let you know when it ships.\n\nYou can check its status at any time with the button below.',
      ctaLabel: 'View your order',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      ORDER_NUMBER,
      variable('order.total', 'The order total, formatted in its currency', '$128.00'),
      variable('order.itemCount', 'The number of items ordered', '3'),
    ],
    requiredVariables: [],
    action: { description: "The order's status page (its order-status link)", samplePath: SAMPLE_ORDER_PATH },
    hasUnsubscribe: false,
  },
  {
    type: 'ABANDONED_CART_RECOVERY',
    description: 'Reminds a shopper of a cart left behind.',
    defaults: {
      subject: 'You left something in your cart',
      heading: 'Still thinking it over, {{ customer.name }}?',
      bodyText:
        'Your cart at {{ organization.name }} still holds {{ cart.itemCount }} items ({{ cart.total }}). We saved it for you, so you can pick up where you left off.',
      ctaLabel: 'Return to your cart',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      variable('cart.itemCount', 'The number of items in the cart', '2'),
      variable('cart.total', 'The cart subtotal, formatted in its currency', '$86.00'),
    ],
    requiredVariables: [],
    action: { description: 'The saved cart', samplePath: '/cart/recover/sample' },
    hasUnsubscribe: true,
  },
  {
    type: 'BACK_IN_STOCK',
    description: 'Tells a subscriber that a product they asked about is available again.',
    defaults: {
      subject: '{{ item.name }} is back in stock',
      heading: 'Good news: {{ item.name }} is back',
      bodyText:
        'You asked us to tell you when {{ item.name }} ({{ variant.name }}) was available again. It is back in stock now, while supplies last.',
      ctaLabel: 'Shop now',
    },
    variables: [ORGANIZATION_NAME, ITEM_NAME, VARIANT_NAME],
    requiredVariables: [],
    action: { description: "The product's page", samplePath: '/products/trail-runner-2' },
    hasUnsubscribe: true,
  },
  {
    type: 'STOCK_NOTIFICATION_CONFIRMATION',
    description: 'Confirms a back-in-stock signup.',
    defaults: {
      subject: 'We will let you know when {{ item.name }} is back',
      heading: 'You are on the list',
      bodyText:
        'Thanks for your interest in {{ item.name }} ({{ variant.name }}). We will email you once when it is back in stock at {{ organization.name }}.',
      ctaLabel: 'View the product',
    },
    variables: [ORGANIZATION_NAME, ITEM_NAME, VARIANT_NAME],
    requiredVariables: [],
    action: { description: "The product's page", samplePath: '/products/trail-runner-2' },
    hasUnsubscribe: true,
  },
  {
    type: 'NEWSLETTER_CONFIRMATION',
    description: 'Double opt-in: asks a new subscriber to confirm.',
    defaults: {
      subject: 'Confirm your subscription to {{ organization.name }}',
      heading: 'One more step',
      bodyText:
        'Please confirm that {{ subscriber.email }} should receive news and offers from {{ organization.name }}.\n\nIf you did not sign up, ignore this email and you will not be subscribed.',
      ctaLabel: 'Confirm subscription',
    },
    variables: [
      ORGANIZATION_NAME,
      variable('subscriber.email', 'The address that signed up', 'ada@example.com'),
    ],
    requiredVariables: [],
    action: { description: 'The confirmation link', samplePath: '/newsletter/confirm?token=sample' },
    hasUnsubscribe: true,
  },
  {
    type: 'RETURN_REQUESTED',
    description: 'Acknowledges a return request.',
    defaults: {
      subject: 'We received your return request for order {{ order.number }}',
      heading: 'Return request received',
      bodyText:
        'Hi {{ customer.name }},\n\nWe have received your return request {{ return.id }} for order {{ order.number }}. We will review it and email you as soon as it is approved.',
      ctaLabel: 'View your return',
    },
    variables: RETURN_VARIABLES,
    requiredVariables: [],
    action: RETURN_ACTION,
    hasUnsubscribe: false,
  },
  {
    type: 'RETURN_APPROVED',
    description: 'Tells the customer a return was approved and how to send the items back.',
    defaults: {
      subject: 'Your return for order {{ order.number }} is approved',
      heading: 'Return approved',
      bodyText:
        'Hi {{ customer.name }},\n\nGood news: return {{ return.id }} for order {{ order.number }} is approved. Please send the items back using the instructions on the return page.',
      ctaLabel: 'See return instructions',
    },
    variables: RETURN_VARIABLES,
    requiredVariables: [],
    action: RETURN_ACTION,
    hasUnsubscribe: false,
  },
  {
    type: 'RETURN_RECEIVED',
    description: 'Tells the customer the returned items arrived.',
    defaults: {
      subject: 'We received your returned items',
      heading: 'Your items arrived',
      bodyText:
        'Hi {{ customer.name }},\n\nThe items of return {{ return.id }} (order {{ order.number }}) have arrived. We will inspect them and let you know when the return is complete.',
      ctaLabel: 'View your return',
    },
    variables: RETURN_VARIABLES,
    requiredVariables: [],
    action: RETURN_ACTION,
    hasUnsubscribe: false,
  },
  {
    type: 'RETURN_COMPLETED',
    description: 'Tells the customer the return is complete and refunded.',
    defaults: {
      subject: 'Your return for order {{ order.number }} is complete',
      heading: 'Return complete',
      bodyText:
        'Hi {{ customer.name }},\n\nReturn {{ return.id }} for order {{ order.number }} is complete, and a refund of {{ return.refundTotal }} is on its way to your original payment method. It can take a few business days to appear.',
      ctaLabel: 'View your return',
    },
    variables: [
      ...RETURN_VARIABLES,
      variable('return.refundTotal', 'The amount refunded, formatted in its currency', '$42.00'),
    ],
    requiredVariables: [],
    action: RETURN_ACTION,
    hasUnsubscribe: false,
  },
  {
    type: 'RETURN_REJECTED',
    description: 'Tells the customer a return was not accepted, and why.',
    defaults: {
      subject: 'An update on your return for order {{ order.number }}',
      heading: 'We could not accept your return',
      bodyText:
        'Hi {{ customer.name }},\n\nWe are sorry, but we could not accept return {{ return.id }} for order {{ order.number }}.\n\nReason: {{ return.reason }}\n\nIf you have questions, reply to this email.',
      ctaLabel: 'View your return',
    },
    variables: [
      ...RETURN_VARIABLES,
      variable(
        'return.reason',
        "The merchant's reason for rejecting the return",
        'The items were sent back after the 30-day return window.',
      ),
    ],
    requiredVariables: [],
    action: RETURN_ACTION,
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_QUOTE_SEND',
    description: 'Sends a quote to a customer.',
    defaults: {
      subject: 'Your quote {{ quote.number }} from {{ organization.name }}',
      heading: 'Your quote is ready',
      bodyText:
        'Hi {{ customer.name }},\n\nHere is quote {{ quote.number }} for {{ quote.total }}. It is valid until {{ quote.expiresOn }}.\n\nReview the details and accept it online with the button below.',
      ctaLabel: 'View quote',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      QUOTE_NUMBER,
      variable('quote.total', 'The quote total, formatted in its currency', '$2,400.00'),
      QUOTE_EXPIRES_ON,
    ],
    requiredVariables: [],
    action: { description: "The quote's page", samplePath: '/quotes/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_INVOICE_SEND',
    description: 'Sends an invoice to a customer.',
    defaults: {
      subject: 'Invoice {{ invoice.number }} from {{ organization.name }}',
      heading: 'Your invoice',
      bodyText:
        'Hi {{ customer.name }},\n\nInvoice {{ invoice.number }} for {{ invoice.total }} is due on {{ invoice.dueOn }}. You can view and pay it online.',
      ctaLabel: 'View and pay invoice',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      variable('invoice.number', "The invoice's number", 'INV-1088'),
      variable('invoice.total', 'The amount due, formatted in its currency', '$250.00'),
      variable('invoice.dueOn', 'The due date, formatted', 'March 15, 2026'),
    ],
    requiredVariables: [],
    action: { description: "The invoice's payment page", samplePath: '/invoices/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_CONTRACT_SEND',
    description: 'Sends a contract to a customer for signature.',
    defaults: {
      subject: 'Please review and sign: {{ contract.title }}',
      heading: 'A contract is waiting for your signature',
      bodyText:
        'Hi {{ customer.name }},\n\n{{ organization.name }} has sent you "{{ contract.title }}" to review and sign.',
      ctaLabel: 'Review and sign',
    },
    variables: [ORGANIZATION_NAME, CUSTOMER_NAME, CONTRACT_TITLE],
    requiredVariables: [],
    action: { description: "The contract's signing page", samplePath: '/contracts/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_CONTRACT_COUNTERSIGNED',
    description: 'Tells the customer the merchant countersigned their contract.',
    defaults: {
      subject: '{{ contract.title }} is fully signed',
      heading: 'Your contract is complete',
      bodyText:
        'Hi {{ customer.name }},\n\n{{ organization.name }} countersigned "{{ contract.title }}" on {{ contract.countersignedOn }}. A copy of the signed contract is available for your records.',
      ctaLabel: 'View contract',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      CONTRACT_TITLE,
      variable('contract.countersignedOn', 'The day the merchant countersigned, formatted', 'March 3, 2026'),
    ],
    requiredVariables: [],
    action: { description: "The contract's page", samplePath: '/contracts/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_CONTRACT_VOIDED',
    description: 'Tells the customer a contract was voided.',
    defaults: {
      subject: '{{ contract.title }} has been voided',
      heading: 'A contract was voided',
      bodyText:
        'Hi {{ customer.name }},\n\n{{ organization.name }} has voided "{{ contract.title }}". It no longer needs your signature and is not in effect. If you have questions, reply to this email.',
      ctaLabel: 'View details',
    },
    variables: [ORGANIZATION_NAME, CUSTOMER_NAME, CONTRACT_TITLE],
    requiredVariables: [],
    action: { description: "The contract's page", samplePath: '/contracts/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_QUOTE_EXPIRED',
    description: 'Tells the customer a quote expired.',
    defaults: {
      subject: 'Quote {{ quote.number }} has expired',
      heading: 'Your quote has expired',
      bodyText:
        'Hi {{ customer.name }},\n\nQuote {{ quote.number }} expired on {{ quote.expiresOn }}. If you are still interested, contact us and we will be glad to prepare a new one.',
      ctaLabel: 'View quote',
    },
    variables: [ORGANIZATION_NAME, CUSTOMER_NAME, QUOTE_NUMBER, QUOTE_EXPIRES_ON],
    requiredVariables: [],
    action: { description: "The quote's page", samplePath: '/quotes/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'BOOKING_NOTIFICATION',
    description:
      'Every booking email, to the customer (requested, confirmed, payment required, declined, cancelled, expired, rescheduled, change requests) or the merchant (new request or booking, change requested, customer cancelled, refund required, late payment refunded). The default copy uses the event variables, so one override serves every event.',
    defaults: {
      subject: '{{ booking.eventTitle }}: {{ booking.serviceName }} ({{ booking.code }})',
      heading: '{{ booking.eventTitle }}',
      bodyText:
        '{{ booking.eventMessage }}\n\n{{ booking.serviceName }}\n{{ booking.startsAtLocal }} to {{ booking.endsAtLocal }} ({{ booking.timezone }})\nBooking {{ booking.code }}\n\nManage this booking: {{ booking.manageUrl }}',
      ctaLabel: '{{ booking.actionLabel }}',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      variable(
        'booking.event',
        'The event, in capitals: REQUEST_RECEIVED, CONFIRMED, PAYMENT_REQUIRED, DECLINED, CANCELLED, EXPIRED, RESCHEDULED, CHANGE_REQUEST_RECEIVED, CHANGE_REQUEST_APPROVED, CHANGE_REQUEST_DECLINED, NEW_REQUEST, NEW_BOOKING, CHANGE_REQUESTED, CUSTOMER_CANCELLED, REFUND_REQUIRED or LATE_PAYMENT_REFUNDED',
        'CONFIRMED',
      ),
      variable('booking.eventTitle', "The event's title", 'Booking confirmed'),
      variable(
        'booking.eventMessage',
        "The event's message, a sentence or two",
        'Your booking is confirmed. We look forward to seeing you.',
      ),
      variable('booking.code', "The booking's support code", 'BK-7K3M9Q2T'),
      variable('booking.serviceName', "The booked service's name", 'Kayak rental'),
      variable(
        'booking.startsAtLocal',
        'When the booking starts, formatted in the service timezone',
        'March 14, 2026 at 10:00 AM',
      ),
      variable(
        'booking.endsAtLocal',
        'When the booking ends, formatted in the service timezone',
        'March 14, 2026 at 12:00 PM',
      ),
      variable('booking.timezone', "The service's IANA timezone", 'Europe/Berlin'),
      variable(
        'booking.manageUrl',
        "The booking's management link (customer emails: a fresh guest link; merchant emails: the booking in the admin)",
        'https://shop.example/bookings/manage/m1_sample',
      ),
      variable(
        'booking.paymentUrl',
        'The payment link when a payment is due (PAYMENT_REQUIRED), else empty',
        'https://shop.example/checkout/pay?token=c1_sample',
      ),
      variable(
        'booking.actionLabel',
        'What the button opens: "Pay now" when a payment is due (it opens the payment link), else "View booking"',
        'View booking',
      ),
    ],
    requiredVariables: [],
    action: {
      description: "The payment link when a payment is due, else the booking's management link",
      samplePath: '/bookings/manage/m1_sample',
    },
    hasUnsubscribe: false,
  },
  {
    type: 'COMMERCE_PAYMENT_RECEIVED',
    description: 'A receipt for a payment.',
    defaults: {
      subject: 'Payment received: {{ payment.amount }}',
      heading: 'Thank you for your payment',
      bodyText:
        'Hi {{ customer.name }},\n\nWe received your payment of {{ payment.amount }} for {{ payment.reference }} on {{ payment.receivedOn }}.',
      ctaLabel: 'View receipt',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      PAYMENT_AMOUNT,
      variable('payment.reference', 'What the payment was for (an invoice or order number)', 'INV-1088'),
      variable('payment.receivedOn', 'The day the payment arrived, formatted', 'March 2, 2026'),
    ],
    requiredVariables: [],
    action: { description: "The payment's receipt page", samplePath: '/receipts/sample' },
    hasUnsubscribe: false,
  },
  {
    type: 'ORDER_SHIPPED',
    description: 'Tells the customer their order shipped.',
    defaults: {
      subject: 'Order {{ order.number }} is on its way',
      heading: 'Your order has shipped',
      bodyText:
        'Hi {{ customer.name }},\n\nOrder {{ order.number }} has shipped with {{ shipment.carrier }}. Tracking number: {{ shipment.trackingNumber }}.',
      ctaLabel: 'Track your package',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      ORDER_NUMBER,
      variable('shipment.carrier', "The carrier's name", 'UPS'),
      variable('shipment.trackingNumber', "The carrier's tracking number", '1Z999AA10123456784'),
      variable(
        'shipment.trackingUrl',
        "The carrier's tracking page (https only; empty otherwise)",
        'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      ),
      variable('shipment.items', 'The items shipped with their quantities', '2 × Blue tee, 1 × Mug'),
      variable('shipment.shippedAt', 'When the shipment left, ISO 8601', '2026-03-02T14:00:00.000Z'),
    ],
    requiredVariables: [],
    action: { description: "The shipment's tracking page", samplePath: `${SAMPLE_ORDER_PATH}/tracking` },
    hasUnsubscribe: false,
  },
  {
    type: 'SUBSCRIPTION_PAYMENT_RECOVERY',
    description: 'Asks a subscriber to fix a failed subscription payment.',
    defaults: {
      subject: 'Action needed: update your payment for {{ subscription.name }}',
      heading: 'We could not process your payment',
      bodyText:
        'Hi {{ customer.name }},\n\nWe could not charge {{ payment.amount }} for your {{ subscription.name }} subscription. We will try again on {{ payment.nextAttemptOn }}; update your payment method before then to keep it active.',
      ctaLabel: 'Update payment method',
    },
    variables: [
      ORGANIZATION_NAME,
      CUSTOMER_NAME,
      variable('subscription.name', "The subscription's name", 'Coffee club, monthly'),
      {
        ...PAYMENT_AMOUNT,
        description: 'The amount that failed, formatted in its currency',
        sample: '$24.00',
      },
      variable('payment.nextAttemptOn', 'The day of the next charge attempt, formatted', 'March 9, 2026'),
    ],
    requiredVariables: [],
    action: {
      description: 'The page that updates the payment method',
      samplePath: '/account/subscriptions/sample',
    },
    hasUnsubscribe: false,
  },
];

const BY_TYPE = new Map<string, EmailTemplateDefinition>(
  DEFINITIONS.map((definition) => [definition.type, definition]),
);

/** Every definition, in the spec's order. */
export function listEmailTemplateDefinitions(): readonly EmailTemplateDefinition[] {
  return DEFINITIONS;
}

/** The definition of `type`, or undefined for a string that names no template type. */
export function findEmailTemplateDefinition(type: string): EmailTemplateDefinition | undefined {
  return BY_TYPE.get(type);
}

export function getEmailTemplateDefinition(type: EmailTemplateType): EmailTemplateDefinition {
  const definition = BY_TYPE.get(type);
  if (!definition) throw new Error(`No email template definition for ${type}`);
  return definition;
}

/** The sample value of every merge variable of `type`, by name. */
export function sampleMergeValues(definition: EmailTemplateDefinition): Record<string, string> {
  return Object.fromEntries(definition.variables.map((entry) => [entry.name, entry.sample]));
}
