// Amounts cross the API as exact decimal strings ("0.000067", down to 10⁻¹² of the currency). They
// are shown and compared here without ever becoming a float, so every digit the server sent is a
// digit shown: a float would round a long amount, and summing floats drifts.

const AMOUNT = /^(-?)(\d+)(?:\.(\d+))?$/;
/** The finest unit an amount has: 10⁻¹² of the currency (NUMERIC(30,12) on the books). */
const PICO_DIGITS = 12;

export interface MoneyAmount {
  readonly amount: string;
  readonly currency: string;
}

/**
 * An amount in a locale's notation with its currency symbol ("$0.000067" in en, "0,000067 $" in de):
 * the locale gives the symbol, its place, the separators and the grouping of the whole part; the
 * digits are the amount's own, all of them.
 */
export function formatMoney(money: MoneyAmount, locale: string): string {
  const match = AMOUNT.exec(money.amount);
  if (!match) return `${money.amount} ${money.currency}`;
  const [, sign, whole, fraction = ''] = match;
  const currency = new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // The shape of any amount in this locale, filled with this amount's exact digits.
  const shape = currency.formatToParts(sign ? -1.5 : 1.5);
  const grouped = new Intl.NumberFormat(locale).format(BigInt(whole!));
  return shape
    .map((part) => {
      switch (part.type) {
        case 'integer':
          return grouped;
        case 'decimal':
          return fraction ? part.value : '';
        case 'fraction':
          return fraction;
        default:
          return part.value;
      }
    })
    .join('');
}

/** An amount in pico-units of its currency, exactly: for sorting and comparing amounts. */
export function picosOf(amount: string): bigint {
  const match = AMOUNT.exec(amount);
  if (!match) throw new Error(`Not a decimal amount: ${amount}`);
  const [, sign, whole, fraction = ''] = match;
  const picos = BigInt(whole!) * 10n ** BigInt(PICO_DIGITS) + BigInt(fraction.padEnd(PICO_DIGITS, '0').slice(0, PICO_DIGITS) || '0');
  return sign ? -picos : picos;
}
