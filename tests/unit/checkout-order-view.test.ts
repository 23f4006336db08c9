import { describe, expect, it } from 'vitest';
import {
  addressLines,
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
