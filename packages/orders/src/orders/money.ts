/** An amount in minor units (`InCents`) formatted in its currency for an email: `$128.00`, `¥1,280`. */
export function formatMoney(amountInMinorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountInMinorUnits / 10 ** digits);
}
