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
  return (
    <table className="responsive">
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className="num">
            Quantity
          </th>
          <th scope="col" className="num">
            Price
          </th>
          <th scope="col" className="num">
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.key}>
            <td data-label="Item">{line.name}</td>
            <td data-label="Quantity" className="num">
              {line.quantity}
            </td>
            <td data-label="Price" className="num">
              {money(line.unitPriceInCents)}
            </td>
            <td data-label="Total" className="num">
              {money(line.totalInCents)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
