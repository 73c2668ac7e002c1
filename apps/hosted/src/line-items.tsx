import { countryName } from './countries.tsx';
import { useText } from './i18n/index.ts';
import { formatMoney } from './lib/format.ts';

export interface LineItem {
  /** Unique among the lines (React's key). */
  key: string;
  name: string;
  quantity: number;
  unitPriceInCents: number;
  totalInCents: number;
}

/**
 * The lines of a cart or an order: item, quantity, price and total, in the store currency. A
 * responsive table (each cell names its column at phone width), shared by the checkout summary and
 * the order pages.
 */
export function LineItemsTable({ lines, currency }: { lines: readonly LineItem[]; currency: string }) {
  const money = (amount: number) => formatMoney(amount, currency);
  const t = useText();
  return (
    <table className="responsive">
      <thead>
        <tr>
          <th scope="col">{t('lines.item')}</th>
          <th scope="col" className="num">
            {t('lines.quantity')}
          </th>
          <th scope="col" className="num">
            {t('lines.price')}
          </th>
          <th scope="col" className="num">
            {t('lines.total')}
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.key}>
            <td data-label={t('lines.item')}>{line.name}</td>
            <td data-label={t('lines.quantity')} className="num">
              {line.quantity}
            </td>
            <td data-label={t('lines.price')} className="num">
              {money(line.unitPriceInCents)}
            </td>
            <td data-label={t('lines.total')} className="num">
              {money(line.totalInCents)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The lines of a checkout's summary, as Shopify's and Stripe's checkouts list them: the item's name
 * on one line (ellipsised when long: the full name stays its text, so it is read whole, and is its
 * `title` for a pointer), the quantity and unit price under it, the line's total at the end. A
 * list rather than the order page's table, so nothing is wider than a phone.
 */
export function SummaryLines({ lines, currency }: { lines: readonly LineItem[]; currency: string }) {
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <ul className="summary-lines">
      {lines.map((line) => (
        <li key={line.key}>
          <span className="summary-line-text">
            <span className="summary-line-name" title={line.name}>
              {line.name}
            </span>
            <span className="summary-line-detail">
              {line.quantity} × {money(line.unitPriceInCents)}
            </span>
          </span>
          <span className="summary-line-total">{money(line.totalInCents)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The money lines under the items, in one order and with one set of labels wherever an order's
 * totals are shown (the checkout summary, the confirmation, the order page): Subtotal, Discount
 * (when there is one), Shipping (when the order ships), Tax (when there is any; "Tax included" when
 * the prices hold it), Total.
 */
export function TotalsList({
  currency,
  subtotalInCents,
  discountInCents = 0,
  shipping,
  taxInCents,
  taxIncluded,
  totalInCents,
}: {
  currency: string;
  /** Absent: not shown (a cart with no lines, e.g. a booking's payment). */
  subtotalInCents?: number;
  discountInCents?: number;
  /** Absent: the order ships nothing; `'later'`: a rate is still to be chosen. */
  shipping?: number | 'later';
  taxInCents: number;
  taxIncluded: boolean;
  totalInCents: number;
}) {
  const money = (amount: number) => formatMoney(amount, currency);
  const t = useText();
  return (
    <dl className="totals">
      {subtotalInCents === undefined ? null : (
        <>
          <dt>{t('totals.subtotal')}</dt>
          <dd>{money(subtotalInCents)}</dd>
        </>
      )}
      {discountInCents > 0 ? (
        <>
          <dt>{t('totals.discount')}</dt>
          <dd>−{money(discountInCents)}</dd>
        </>
      ) : null}
      {shipping === undefined ? null : (
        <>
          <dt>{t('totals.shipping')}</dt>
          <dd>{shipping === 'later' ? t('totals.chosenNext') : money(shipping)}</dd>
        </>
      )}
      {taxInCents > 0 ? (
        <>
          <dt>{taxIncluded ? t('totals.taxIncluded') : t('totals.tax')}</dt>
          <dd>{money(taxInCents)}</dd>
        </>
      ) : null}
      <dt className="total">{t('totals.total')}</dt>
      <dd className="total">{money(totalInCents)}</dd>
    </dl>
  );
}

export interface PostalAddress {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string | null;
  postalCode: string;
  country: string;
  phone: string | null;
}

/** A ship-to address as a parcel label reads it, the country by name. */
export function AddressBlock({ address }: { address: PostalAddress }) {
  return (
    <address className="address">
      {address.name}
      <br />
      {address.line1}
      {address.line2 ? (
        <>
          <br />
          {address.line2}
        </>
      ) : null}
      <br />
      {[address.city, address.state, address.postalCode].filter(Boolean).join(', ')}
      <br />
      {countryName(address.country)}
      {address.phone ? (
        <>
          <br />
          {address.phone}
        </>
      ) : null}
    </address>
  );
}
