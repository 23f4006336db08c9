import { describe, expect, it } from 'vitest';
import {
  addressFromCustomer,
  billingAddressHidden,
  buildCheckoutVariables,
  destinationOf,
  emptyAddress,
  firstInvalidField,
  isValidEmail,
  orderReceivedPath,
  validateAddress,
  validateCheckout,
  type CheckoutForm,
} from '../../src/islands/checkout/validation.ts';
import { gatewayKind } from '../../src/islands/checkout/gateways.ts';

const US_STATES = [
  { code: 'CA', name: 'California' },
  { code: 'NY', name: 'New York' },
];
const DE_STATES = [{ code: 'DE-BE', name: 'Berlin' }];
const IT_STATES = [{ code: 'RM', name: 'Roma' }];
const statesOf = (country: string) =>
  (({ US: US_STATES, DE: DE_STATES, IT: IT_STATES, GB: [] }) as Record<string, { code: string; name: string }[]>)[
    country
  ];

const filled = (overrides: Partial<CheckoutForm['billing']> = {}) => ({
  ...emptyAddress('DE'),
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: 'Hauptstraße 1',
  city: 'Berlin',
  postcode: '10115',
  email: 'ada@example.com',
  ...overrides,
});

const form = (overrides: Partial<CheckoutForm> = {}): CheckoutForm => ({
  billing: filled(),
  shipToDifferentAddress: false,
  shipping: emptyAddress(''),
  customerNote: '',
  createAccount: false,
  username: '',
  password: '',
  paymentMethod: 'cod',
  ...overrides,
});
const rules = { statesOf, gateways: ['cod', 'stripe', 'kda'], loggedIn: false };

describe('billing address hidden for an all-virtual cart (hideBillingAddressForVirtualProducts)', () => {
  it('applies only with the setting on and nothing to ship', () => {
    expect(billingAddressHidden(true, { needsShippingAddress: false })).toBe(true);
    expect(billingAddressHidden(true, { needsShippingAddress: true })).toBe(false);
    expect(billingAddressHidden(false, { needsShippingAddress: false })).toBe(false);
    expect(billingAddressHidden(true, null)).toBe(false);
  });

  it('asks for names and e-mail only, still checking the e-mail', () => {
    const contact = { ...emptyAddress(''), firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
    expect(validateCheckout(form({ billing: contact }), { ...rules, billingAddressHidden: true })).toEqual({});
    expect(validateCheckout(form({ billing: emptyAddress('US') }), { ...rules, billingAddressHidden: true })).toEqual({
      'billing.firstName': 'checkout.error.required',
      'billing.lastName': 'checkout.error.required',
      'billing.email': 'checkout.error.required',
    });
    expect(
      validateCheckout(form({ billing: { ...contact, email: 'ada@' } }), { ...rules, billingAddressHidden: true }),
    ).toEqual({ 'billing.email': 'checkout.error.email' });
  });

  it('sends only the contact fields and no shipping address', () => {
    const variables = buildCheckoutVariables(
      form({ billing: filled({ phone: '+49 30 1' }), shipToDifferentAddress: true, shipping: filled() }),
      null,
      {},
      { billingAddressHidden: true },
    );
    expect(variables.billing).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+49 30 1',
      email: 'ada@example.com',
    });
    expect(variables.shipping).toBeUndefined();
    expect(variables.shipToDifferentAddress).toBe(false);
  });
});

describe('checkout validation', () => {
  it('accepts a complete billing address with a payment method', () => {
    expect(validateCheckout(form(), rules)).toEqual({});
  });

  it('requires name, street, city, country, postcode and e-mail', () => {
    const errors = validateCheckout(form({ billing: emptyAddress('') }), rules);
    expect(Object.keys(errors).sort()).toEqual([
      'billing.address1',
      'billing.city',
      'billing.country',
      'billing.email',
      'billing.firstName',
      'billing.lastName',
      'billing.postcode',
    ]);
    expect(validateAddress(filled({ postcode: ' ' }), { kind: 'billing', statesOf })).toEqual({
      'billing.postcode': 'checkout.error.required',
    });
  });

  it('does not require a postcode where the country has none (WooCommerce: Ireland, Hong Kong …)', () => {
    for (const country of ['IE', 'HK', 'AE'])
      expect(validateAddress(filled({ country, postcode: '' }), { kind: 'billing', statesOf }), country).toEqual({});
    expect(validateAddress(filled({ country: 'DE', postcode: '' }), { kind: 'billing', statesOf })).toEqual({
      'billing.postcode': 'checkout.error.required',
    });
  });

  it('checks the e-mail pattern', () => {
    for (const bad of ['ada', 'ada@', 'ada@example', 'a da@example.com', 'ada@@example.com', 'ada@example..com']) {
      expect(isValidEmail(bad), bad).toBe(false);
      expect(validateCheckout(form({ billing: filled({ email: bad }) }), rules)['billing.email']).toBe(
        'checkout.error.email',
      );
    }
    expect(isValidEmail(' ada.lovelace+shop@mail.example.co.uk ')).toBe(true);
  });

  it('requires a state where WooCommerce does (US, Italy …) and the list is known, and one from its list', () => {
    expect(validateAddress(filled({ country: 'US', state: '' }), { kind: 'billing', statesOf })['billing.state']).toBe(
      'checkout.error.required',
    );
    expect(validateAddress(filled({ country: 'IT', state: '' }), { kind: 'billing', statesOf })['billing.state']).toBe(
      'checkout.error.required',
    );
    expect(
      validateAddress(filled({ country: 'US', state: 'XX' }), { kind: 'billing', statesOf })['billing.state'],
    ).toBe('checkout.error.stateInvalid');
    expect(validateAddress(filled({ country: 'US', state: 'CA' }), { kind: 'billing', statesOf })).toEqual({});
    // Germany has a list, but WooCommerce asks for no state there; the United Kingdom's county is optional.
    expect(validateAddress(filled({ country: 'DE', state: '' }), { kind: 'billing', statesOf })).toEqual({});
    expect(validateAddress(filled({ country: 'GB', state: '' }), { kind: 'billing', statesOf })).toEqual({});
    // States not loaded yet: the engine decides.
    expect(validateAddress(filled({ country: 'FR', state: '' }), { kind: 'billing', statesOf })).toEqual({});
  });

  it('validates the shipping address only when shipping to a different address', () => {
    expect(validateCheckout(form({ shipping: emptyAddress('') }), rules)).toEqual({});
    const errors = validateCheckout(form({ shipToDifferentAddress: true, shipping: emptyAddress('US') }), rules);
    expect(errors['shipping.firstName']).toBe('checkout.error.required');
    expect(errors['shipping.state']).toBe('checkout.error.required');
    expect(errors['shipping.email']).toBeUndefined();
  });

  it('asks for username and password only when creating an account as a guest', () => {
    const errors = validateCheckout(form({ createAccount: true, username: 'a', password: 'short' }), rules);
    expect(errors).toEqual({
      'account.username': 'checkout.error.username',
      'account.password': 'checkout.error.password',
    });
    expect(validateCheckout(form({ createAccount: true, username: 'ada', password: 'long enough' }), rules)).toEqual(
      {},
    );
    expect(validateCheckout(form({ createAccount: true }), { ...rules, loggedIn: true })).toEqual({});
  });

  it('requires a payment method the engine offers', () => {
    expect(validateCheckout(form({ paymentMethod: '' }), rules).paymentMethod).toBe('checkout.error.paymentMethod');
    expect(validateCheckout(form({ paymentMethod: 'bacs' }), rules).paymentMethod).toBe('checkout.error.paymentMethod');
  });

  it('points at the first invalid field in form order', () => {
    expect(firstInvalidField({ paymentMethod: 'x', 'billing.email': 'x', 'billing.lastName': 'x' })).toBe(
      'billing.lastName',
    );
    expect(firstInvalidField({})).toBeNull();
  });
});

describe('checkout variables', () => {
  it('sends billing (trimmed, empty fields left out) and the same address for shipping', () => {
    const variables = buildCheckoutVariables(form({ billing: filled({ firstName: ' Ada ', phone: '' }) }), {
      chosenShippingMethods: ['flat_rate:1'],
    });
    expect(variables).toEqual({
      paymentMethod: 'cod',
      billing: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        address1: 'Hauptstraße 1',
        city: 'Berlin',
        postcode: '10115',
        country: 'DE',
        email: 'ada@example.com',
      },
      shipping: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        address1: 'Hauptstraße 1',
        city: 'Berlin',
        postcode: '10115',
        country: 'DE',
      },
      shipToDifferentAddress: false,
      shippingMethod: ['flat_rate:1'],
    });
  });

  it('sends the separate shipping address, note and account when given', () => {
    const variables = buildCheckoutVariables(
      form({
        shipToDifferentAddress: true,
        shipping: filled({ firstName: 'Charles', country: 'US', state: 'CA', email: 'ignored@example.com' }),
        customerNote: '  Leave at the door ',
        createAccount: true,
        username: 'ada',
        password: 'secret-password',
      }),
      null,
    );
    expect(variables.shipping).toMatchObject({ firstName: 'Charles', country: 'US', state: 'CA' });
    expect(variables.shipping).not.toHaveProperty('email');
    expect(variables.shipToDifferentAddress).toBe(true);
    expect(variables.customerNote).toBe('Leave at the door');
    expect(variables.account).toEqual({ username: 'ada', password: 'secret-password' });
    expect(variables).not.toHaveProperty('shippingMethod');
  });

  it('adds the card payment: transactionId = the PaymentIntent id', () => {
    const variables = buildCheckoutVariables(form({ paymentMethod: 'stripe' }), null, {
      transactionId: 'pi_123',
      metaData: [{ key: '_stripe_payment_intent_id', value: 'pi_123' }],
    });
    expect(variables).toMatchObject({
      paymentMethod: 'stripe',
      transactionId: 'pi_123',
      isPaid: true,
      metaData: [{ key: '_stripe_payment_intent_id', value: 'pi_123' }],
    });
    expect(buildCheckoutVariables(form(), null)).not.toHaveProperty('isPaid');
  });

  it('knows where the order ships to and where it lands afterwards', () => {
    expect(destinationOf(form())).toEqual({ country: 'DE', state: '' });
    expect(
      destinationOf(form({ shipToDifferentAddress: true, shipping: filled({ country: 'US', state: 'NY' }) })),
    ).toEqual({ country: 'US', state: 'NY' });
    expect(orderReceivedPath('/de', { databaseId: 42, orderKey: 'wc_order_a b' })).toBe(
      '/de/checkout/order-received/42?key=wc_order_a%20b',
    );
  });

  it('sends no field the country does not ask for: a German state or an Emirati postcode kept from earlier', () => {
    const variables = buildCheckoutVariables(form({ billing: filled({ state: 'DE-BE' }) }), null);
    expect(variables.billing).not.toHaveProperty('state');
    expect(variables.shipping).not.toHaveProperty('state');
    expect(destinationOf(form({ billing: filled({ state: 'DE-BE' }) }))).toEqual({ country: 'DE', state: '' });
    const emirati = buildCheckoutVariables(form({ billing: filled({ country: 'AE', postcode: '12345' }) }), null);
    expect(emirati.billing).not.toHaveProperty('postcode');
    const american = buildCheckoutVariables(form({ billing: filled({ country: 'US', state: 'CA' }) }), null);
    expect(american.billing).toMatchObject({ country: 'US', state: 'CA', postcode: '10115' });
  });

  it('prefills from the stored customer address', () => {
    expect(addressFromCustomer({ firstName: 'Ada', country: 'FR', state: null }, 'DE')).toMatchObject({
      firstName: 'Ada',
      country: 'FR',
      state: '',
    });
    expect(addressFromCustomer(null, 'DE').country).toBe('DE');
  });

  it('recognises the gateway kinds', () => {
    expect(gatewayKind('stripe')).toBe('card');
    expect(gatewayKind('kda')).toBe('crypto');
    expect(gatewayKind('cod')).toBe('cod');
    expect(gatewayKind('bacs')).toBe('other');
  });
});
