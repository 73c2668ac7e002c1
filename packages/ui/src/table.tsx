import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** The cell of a row. */
  cell: (row: Row) => ReactNode;
  /** Numbers and money align to the end. */
  align?: 'start' | 'end';
  /** The label shown beside the value when rows stack on a phone (the header's text by default). */
  label?: string;
}

/**
 * A data table (plain semantic HTML: a caption, column headers, rows). On a phone each row
 * becomes a card of label/value lines unless `stackOnPhone` is false.
 */
export function Table<Row>({
  caption,
  captionHidden,
  columns,
  rows,
  rowKey,
  empty,
  stackOnPhone = true,
}: {
  caption: ReactNode;
  /** The caption is for screen readers only (the page's heading says it). */
  captionHidden?: boolean;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  stackOnPhone?: boolean;
}) {
  if (rows.length === 0 && empty !== undefined) return <div className="ui-table-empty">{empty}</div>;
  return (
    <div className="ui-table-wrap">
      <table className="ui-table" data-stack={stackOnPhone || undefined}>
        <caption className={captionHidden ? 'ui-visually-hidden' : 'ui-table-caption'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" data-align={column.align ?? 'start'}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  data-align={column.align ?? 'start'}
                  data-label={column.label ?? (typeof column.header === 'string' ? column.header : undefined)}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
