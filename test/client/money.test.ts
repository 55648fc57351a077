import { describe, expect, it } from 'vitest';
import { formatMoney, picosOf } from '../../packages/client/src/money.ts';

// The client shows the server's exact amounts in the reader's notation without a float in between:
// every digit sent is a digit shown, however many decimals, however large the whole part.

describe('formatMoney', () => {
  it('keeps every digit of the amount, in the locale’s notation', () => {
    expect(formatMoney({ amount: '0.000067', currency: 'USD' }, 'en-US')).toBe('$0.000067');
    expect(formatMoney({ amount: '0.000067', currency: 'USD' }, 'de-DE')).toBe('0,000067\u00a0$');
    expect(formatMoney({ amount: '1.50', currency: 'EUR' }, 'de-DE')).toBe('1,50\u00a0€');
    expect(formatMoney({ amount: '0.00', currency: 'USD' }, 'en-US')).toBe('$0.00');
  });

  it('does not round what a float would: twelve decimals on a large whole part, grouped exactly', () => {
    expect(formatMoney({ amount: '123456789012.123456789012', currency: 'USD' }, 'en-US')).toBe('$123,456,789,012.123456789012');
    expect(formatMoney({ amount: '9007199254740993.000000000001', currency: 'EUR' }, 'de-DE')).toBe('9.007.199.254.740.993,000000000001\u00a0€');
  });

  it('shows a currency without minor units with the decimals it was given, and a negative amount with its sign', () => {
    expect(formatMoney({ amount: '12.50', currency: 'JPY' }, 'en-US')).toBe('¥12.50');
    expect(formatMoney({ amount: '-0.25', currency: 'USD' }, 'en-US')).toBe('-$0.25');
  });

  it('leaves what is not a decimal amount as it came, with its currency', () => {
    expect(formatMoney({ amount: '1e-6', currency: 'USD' }, 'en-US')).toBe('1e-6 USD');
  });
});

describe('picosOf', () => {
  it('reads an amount exactly in pico-units, for comparing amounts', () => {
    expect(picosOf('0.000067')).toBe(67_000_000n);
    expect(picosOf('12')).toBe(12_000_000_000_000n);
    expect(picosOf('-0.000000000001')).toBe(-1n);
    expect(picosOf('0.1') > picosOf('0.099999999999')).toBe(true);
    expect(() => picosOf('abc')).toThrow('Not a decimal amount: abc');
  });
});
