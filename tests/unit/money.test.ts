import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  decimalToCents,
  formatEUR,
  highestRawPrice,
  lowestRawPrice,
  parseRawPrices,
} from '../../src/lib/money.ts';

describe('decimalToCents', () => {
  it('reads whole, one- and two-decimal amounts exactly', () => {
    expect(decimalToCents('12')).toBe(1200);
    expect(decimalToCents('12.5')).toBe(1250);
    expect(decimalToCents('12.50')).toBe(1250);
    expect(decimalToCents('0.07')).toBe(7);
    expect(decimalToCents('12.')).toBe(1200);
    expect(decimalToCents(' 3.1 ')).toBe(310);
  });
  it('avoids float error on amounts that are inexact in binary', () => {
    expect(decimalToCents('0.29')).toBe(29);
    expect(decimalToCents('1.15')).toBe(115);
    expect(decimalToCents('4.35')).toBe(435);
  });
  it('rounds a third decimal half away from zero', () => {
    expect(decimalToCents('1.005')).toBe(101);
    expect(decimalToCents('1.004')).toBe(100);
    expect(decimalToCents('-3.999')).toBe(-400);
  });
  it('refuses strings that are not plain decimals', () => {
    for (const bad of ['', 'abc', '1,234.50', '€5', '1e3', '--1', '.5x']) expect(decimalToCents(bad)).toBeNull();
    expect(decimalToCents(5 as unknown as string)).toBeNull();
  });
});

describe('centsToDecimal', () => {
  it('writes two decimals', () => {
    expect(centsToDecimal(123450)).toBe('1234.50');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(-5)).toBe('-0.05');
  });
  it('refuses fractional cents', () => {
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });
  it('round-trips with decimalToCents', () => {
    for (const cents of [0, 1, 99, 100, 12345, 999999999, -250])
      expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
  });
});

describe('formatEUR', () => {
  it('formats cents and decimal strings in en-US style', () => {
    expect(formatEUR(123450)).toBe('€1,234.50');
    expect(formatEUR('1234.5')).toBe('€1,234.50');
    expect(formatEUR(0)).toBe('€0.00');
    expect(formatEUR('1234567.89')).toBe('€1,234,567.89');
    expect(formatEUR(99)).toBe('€0.99');
    expect(formatEUR(-500)).toBe('-€5.00');
  });
  it('yields an empty string for a non-amount', () => {
    expect(formatEUR('free')).toBe('');
  });
});

describe('RAW price strings', () => {
  it('parses a simple price and a variable product list', () => {
    expect(parseRawPrices('349')).toEqual([34900]);
    expect(parseRawPrices('10, 10, 15.5, 20')).toEqual([1000, 1000, 1550, 2000]);
    expect(parseRawPrices('')).toEqual([]);
    expect(parseRawPrices(null)).toEqual([]);
    expect(parseRawPrices('10, , x, 12')).toEqual([1000, 1200]);
  });
  it('finds the highest and lowest', () => {
    expect(highestRawPrice('10, 15, 20')).toBe(2000);
    expect(lowestRawPrice('10, 15, 20')).toBe(1000);
    expect(highestRawPrice(undefined)).toBeNull();
  });
});
