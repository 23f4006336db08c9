import { describe, expect, it } from 'vitest';
import {
  addressLines,
  lineAmount,
  lineChoices,
  orderTotalRows,
  cryptoProgress,
  formatCountdown,
  isCryptoOrder,
  isPaid,
  kdaUnits,
  orderIdFromPath,
  orderLookups,
  orderMatches,
  orderSummaryPath,
  paymentWindowEnd,
  shouldPoll,
  type ViewOrder,
} from '../../src/islands/order/order-view.ts';

const order = (overrides: Partial<ViewOrder> = {}) =>
  ({
    databaseId: 42,
    orderNumber: '42',
    status: 'PENDING',
    needsPayment: true,
    paymentMethod: 'kda',
    date: '2026-11-22T10:00:00+00:00',
    ...overrides,
  }) as ViewOrder;

describe('order lookups', () => {
  it('tries the key first, then the owner by number', () => {
    expect(orderLookups('42', 'wc_order_x')).toEqual([
      { id: 'wc_order_x', idType: 'ORDER_KEY' },
      { id: '42', idType: 'DATABASE_ID' },
    ]);
    expect(orderLookups('42', null)).toEqual([{ id: '42', idType: 'DATABASE_ID' }]);
    expect(orderLookups('abc', null)).toEqual([]);
  });

  it('accepts only the order the URL names', () => {
    expect(orderMatches(order(), '42')).toBe(true);
    expect(orderMatches(order({ orderNumber: 'MF-42', databaseId: 7 }), 'MF-42')).toBe(true);
    expect(orderMatches(order({ databaseId: 43, orderNumber: '43' }), '42')).toBe(false);
    expect(orderMatches(null, '42')).toBe(false);
  });

  it('reads the id from either order path', () => {
    expect(orderIdFromPath('/checkout/order-received/42')).toBe('42');
    expect(orderIdFromPath('/de/checkout/order-received/42/')).toBe('42');
    expect(orderIdFromPath('/pt-br/order-summary/17')).toBe('17');
    expect(orderIdFromPath('/order-summary')).toBeNull();
    expect(orderSummaryPath('/fr', { databaseId: 17, orderKey: 'k' })).toBe('/fr/order-summary/17?key=k');
  });
});

describe('crypto payment', () => {
  it('polls an unpaid crypto order until it is paid or closed', () => {
    expect(isCryptoOrder(order())).toBe(true);
    expect(shouldPoll(order())).toBe(true);
    expect(shouldPoll(order({ status: 'PROCESSING', needsPayment: false }))).toBe(false);
    expect(shouldPoll(order({ status: 'CANCELLED' }))).toBe(false);
    expect(shouldPoll(order({ paymentMethod: 'cod', status: 'PROCESSING' }))).toBe(false);
    expect(isPaid(order({ status: 'COMPLETED', needsPayment: false }))).toBe(true);
    expect(isPaid(order())).toBe(false);
  });

  it('ends the payment window at paymentExpiresAt, else timeoutValue seconds after the order was read', () => {
    const readAt = Date.parse('2026-11-22T10:00:00Z');
    expect(
      paymentWindowEnd(
        order({ paymentExpiresAt: '2026-11-22T11:00:00+00:00', timeoutValue: 5 }),
        readAt,
      )?.toISOString(),
    ).toBe('2026-11-22T11:00:00.000Z');
    expect(paymentWindowEnd(order({ timeoutValue: 1800 }), readAt)?.toISOString()).toBe('2026-11-22T10:30:00.000Z');
    expect(paymentWindowEnd(order({ timeoutValue: 0 }), readAt)?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(paymentWindowEnd(order({ timeoutValue: null }), readAt)).toBeNull();
    expect(paymentWindowEnd(order({ paymentExpiresAt: 'soon' }), readAt)).toBeNull();
  });

  it('formats the countdown', () => {
    expect(formatCountdown(65_000)).toBe('01:05');
    expect(formatCountdown(3_725_000)).toBe('1:02:05');
    expect(formatCountdown(-5)).toBe('00:00');
  });

  it('measures progress in exact KDA units (12 decimals, no floats)', () => {
    expect(kdaUnits('1.5')).toBe(1_500_000_000_000n);
    expect(kdaUnits('0.000000000001')).toBe(1n);
    expect(kdaUnits('abc')).toBeNull();
    expect(cryptoProgress({ cryptoAmount: '20.5', receivedUnconfirmed: '20.5', receivedConfirmed: '10.25' })).toEqual({
      unconfirmedPercent: 100,
      confirmedPercent: 50,
    });
    expect(cryptoProgress({ cryptoAmount: '3', receivedUnconfirmed: '0.1', receivedConfirmed: '0' })).toEqual({
      unconfirmedPercent: 3,
      confirmedPercent: 0,
    });
    expect(cryptoProgress({ cryptoAmount: '1', receivedUnconfirmed: '2', receivedConfirmed: null })).toEqual({
      unconfirmedPercent: 100,
      confirmedPercent: 0,
    });
  });
});

it('writes an address as lines', () => {
  expect(
    addressLines(
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        address1: 'Main St 1',
        postcode: '10115',
        city: 'Berlin',
        country: 'DE',
        email: 'ada@example.com',
        company: '',
      },
      (c) => (c === 'DE' ? 'Germany' : c),
    ),
  ).toEqual(['Ada Lovelace', 'Main St 1', '10115 Berlin', 'Germany', 'ada@example.com']);
  expect(addressLines(null)).toEqual([]);
});

it('writes a US address as its post does, with the state as code and the country by name', () => {
  expect(
    addressLines(
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        address1: '1000 N Glebe Rd',
        city: 'Arlington',
        state: 'VA',
        postcode: '22201',
        country: 'US',
        phone: '+1 703 555 0100',
      },
      (c) => (c === 'US' ? 'United States' : c),
    ),
  ).toEqual(['Grace Hopper', '1000 N Glebe Rd', 'Arlington, VA 22201', 'United States', '+1 703 555 0100']);
});

it('shows a line before its discount, so the lines add up to the subtotal and the discount has its own row', () => {
  // A €75.00 line with 10% off: the line shows €75.00 (not €67.50) beside the €75.00 subtotal.
  expect(lineAmount({ subtotal: '€75.00', total: '€67.50' })).toBe('€75.00');
  expect(lineAmount({ subtotal: null, total: '€67.50' })).toBe('€67.50');
  const order = {
    subtotal: '€75.00',
    discountTotal: '€7.50',
    shippingTotal: '€0.00',
    totalTax: '€12.83',
    total: '€80.33',
  };
  expect(orderTotalRows(order)).toEqual([
    { key: 'subtotal', value: '€75.00' },
    { key: 'discount', value: '-€7.50' },
    { key: 'shipping', value: '€0.00' },
    { key: 'tax', value: '€12.83' },
    { key: 'total', value: '€80.33' },
  ]);
  expect(orderTotalRows({ ...order, discountTotal: '€0.00', shippingTotal: null }).map((r) => r.key)).toEqual([
    'subtotal',
    'tax',
    'total',
  ]);
});

describe('order line choices', () => {
  it('prints the names recorded with the order, never the slugs, and nothing for a simple product', () => {
    const attribute = (name: string, label: string, value: string, valueName: string) => ({
      id: name,
      attributeId: 0,
      name,
      label,
      value,
      valueName,
    });
    expect(
      lineChoices({
        attributes: [
          attribute('pa_frequency-band', 'Frequenzband', 'eu868', 'EU868'),
          attribute('pa_gain', 'Antennengewinn', '5-8-dbi', '5,8 dBi'),
        ],
      }),
    ).toBe('Frequenzband: EU868 · Antennengewinn: 5,8 dBi');
    // An "any" choice the line did not name is left out; a missing label falls back to the attribute's name.
    expect(lineChoices({ attributes: [attribute('Size', '', 'L', 'L'), attribute('pa_color', 'Color', '', '')] })).toBe(
      'Size: L',
    );
    expect(lineChoices({ attributes: [] })).toBe('');
  });
});
