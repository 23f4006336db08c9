import { describe, expect, it } from 'vitest';
import { GraphQLRequestError, TimeoutError } from '../../src/graphql/client.ts';
import {
  classifySessionFailure,
  INTERACTION_EVENTS,
  mayReloadAfterFailure,
  mayResetReload,
  sessionStartMode,
  stripLocalePrefix,
} from '../../src/stores/session-rules.ts';

describe('session start mode', () => {
  it('starts at once on cart, checkout, account and order pages even with the delay on', () => {
    for (const path of [
      '/cart',
      '/checkout',
      '/checkout/',
      '/checkout/order-received/12',
      '/my-account',
      '/my-account/orders',
      '/order-summary',
      '/order-summary/7',
    ]) {
      expect(sessionStartMode(path, true), path).toBe('immediate');
    }
  });

  it('waits for the first interaction elsewhere when the delay is on', () => {
    for (const path of [
      '/',
      '/products',
      '/product/lora-gateway',
      '/support/getting-started',
      '/checkoutx',
      '/cartography',
    ]) {
      expect(sessionStartMode(path, true), path).toBe('on-interaction');
    }
  });

  it('starts at once everywhere when the delay is off', () => {
    expect(sessionStartMode('/', false)).toBe('immediate');
    expect(sessionStartMode('/products', false)).toBe('immediate');
  });

  it('listens to mouse, key, touch, scroll, wheel, click and resize', () => {
    expect([...INTERACTION_EVENTS].sort()).toEqual([
      'click',
      'keydown',
      'mousedown',
      'mousemove',
      'resize',
      'scroll',
      'touchstart',
      'wheel',
    ]);
  });

  it('strips a locale prefix before deciding', () => {
    const prefixes = ['de', 'es', 'fr', 'it', 'pt-br'];
    expect(stripLocalePrefix('/de/checkout', prefixes)).toBe('/checkout');
    expect(stripLocalePrefix('/pt-br/order-summary/3', prefixes)).toBe('/order-summary/3');
    expect(stripLocalePrefix('/PT-BR/checkout', prefixes)).toBe('/checkout');
    expect(stripLocalePrefix('/checkout', prefixes)).toBe('/checkout');
    expect(stripLocalePrefix('/deals/checkout', prefixes)).toBe('/deals/checkout');
    expect(sessionStartMode(stripLocalePrefix('/fr/checkout', prefixes), true)).toBe('immediate');
  });
});

describe('session failure', () => {
  const apiError = (message: string) =>
    new GraphQLRequestError(message, { operationName: 'getCart', status: 200, errors: [{ message }] });

  it("resets and reloads on 'The iss do not match with this server' and 'Invalid session token'", () => {
    expect(classifySessionFailure(apiError('invalid_token: The iss do not match with this server'))).toBe('reset');
    expect(classifySessionFailure(apiError('Invalid session token'))).toBe('reset');
    expect(classifySessionFailure(new Error('invalid session token'))).toBe('reset');
  });

  it('treats other API errors as a failed refresh', () => {
    expect(classifySessionFailure(apiError('invalid_token: Expired token'))).toBe('failed');
    expect(
      classifySessionFailure(
        new GraphQLRequestError('The GraphQL request getCart failed with HTTP status 500.', {
          operationName: 'getCart',
          status: 500,
        }),
      ),
    ).toBe('failed');
  });

  it('treats timeouts and unreachable APIs as transient', () => {
    expect(classifySessionFailure(new TimeoutError('getCart', 15000))).toBe('transient');
    expect(
      classifySessionFailure(new GraphQLRequestError('could not reach the API', { operationName: 'getCart' })),
    ).toBe('transient');
  });

  it('allows the logout-and-reload once per visitor', () => {
    expect(mayReloadAfterFailure(null)).toBe(true);
    expect(mayReloadAfterFailure('')).toBe(true);
    expect(mayReloadAfterFailure('0')).toBe(true);
    expect(mayReloadAfterFailure('1')).toBe(false);
    expect(mayReloadAfterFailure('3')).toBe(false);
  });

  it('refuses a reset reload right after the previous one (no reload loop)', () => {
    expect(mayResetReload(null, 1_000_000)).toBe(true);
    expect(mayResetReload(1_000_000 - 5_000, 1_000_000)).toBe(false);
    expect(mayResetReload(1_000_000 - 60_000, 1_000_000)).toBe(true);
  });
});
