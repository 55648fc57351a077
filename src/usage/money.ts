import { InvalidInputError } from '../domain/errors.ts';

/*
 * Money is exact. A price is an integer number of micro-units of the currency per million tokens,
 * which is also the price of one token in pico-units (10⁻¹² of the currency); a call's cost is then
 * an integer number of pico-units, and amounts cross the API as decimal strings.
 */

/** Digits of a price per million tokens after the point: a micro-unit. */
const PRICE_DECIMALS = 6;
/** Digits of an amount of money after the point: a pico-unit. */
const AMOUNT_DECIMALS = 12;
/** Longer inputs are refused before any pattern runs. */
const MAX_DECIMAL_CHARS = 40;
const PRICE_PATTERN = /^(\d{1,9})(?:\.(\d{1,6}))?$/;

/** A price per million tokens given as a decimal string ("2.50"), in micro-units; `field` names it in the error. */
export function parsePerMillion(text: string, field: string): bigint {
  const match = text.length <= MAX_DECIMAL_CHARS ? PRICE_PATTERN.exec(text.trim()) : null;
  if (!match) {
    throw new InvalidInputError(
      field,
      `must be a decimal amount per million tokens such as "2.50": at least 0, below 1,000,000,000, at most ${PRICE_DECIMALS} digits after the point (got "${text.slice(0, MAX_DECIMAL_CHARS)}").`,
    );
  }
  return BigInt(match[1]!) * 10n ** BigInt(PRICE_DECIMALS) + BigInt((match[2] ?? '').padEnd(PRICE_DECIMALS, '0'));
}

const AMOUNT_PATTERN = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

/** An amount of money given as a decimal string ("25.00"), more than zero, in pico-units; `field` names it in the error. */
export function parseAmount(text: string, field: string): bigint {
  const match = text.length <= MAX_DECIMAL_CHARS ? AMOUNT_PATTERN.exec(text.trim()) : null;
  const picos = match ? BigInt(match[1]!) * 10n ** BigInt(AMOUNT_DECIMALS) + BigInt((match[2] ?? '').padEnd(AMOUNT_DECIMALS, '0')) : 0n;
  if (picos <= 0n) {
    throw new InvalidInputError(
      field,
      `must be a decimal amount of money such as "25.00": more than 0, below 10¹⁵, at most ${AMOUNT_DECIMALS} digits after the point (got "${text.slice(0, MAX_DECIMAL_CHARS)}").`,
    );
  }
  return picos;
}

/** A price in micro-units per million tokens as a decimal string ("2.5"). */
export function formatPerMillion(micros: bigint): string {
  return formatFixed(micros, PRICE_DECIMALS, 2);
}

/** Pico-units as an amount of the currency ("0.000125"), at least two digits after the point. */
export function formatPicos(picos: bigint): string {
  return formatFixed(picos, AMOUNT_DECIMALS, 2);
}

/** Pico-units as the database keeps an amount, NUMERIC(30, 12): "0.000125000000". */
export function formatAmount(picos: bigint): string {
  return formatFixed(picos, AMOUNT_DECIMALS, AMOUNT_DECIMALS);
}

/** An amount as the database prints a NUMERIC with twelve decimals ("0.000125000000"), in pico-units. */
export function picosOfAmount(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const picos = BigInt(whole || '0') * 10n ** BigInt(AMOUNT_DECIMALS) + BigInt(fraction.padEnd(AMOUNT_DECIMALS, '0').slice(0, AMOUNT_DECIMALS) || '0');
  return negative ? -picos : picos;
}

function formatFixed(value: bigint, decimals: number, minDecimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  let fraction = digits.slice(-decimals).replace(/0+$/, '');
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
