import { describe, expect, it } from 'vitest';
import { emptyAddress } from '../../src/islands/checkout/validation';
import {
  addressStarted,
  changesEmail,
  detailsInput,
  passwordLengthError,
  validateDetails,
  validateEmailRequest,
  validateLogin,
  validatePasswordChange,
  validateRegister,
  type DetailsForm,
} from '../../src/islands/account/validation';

describe('login and register forms', () => {
  it('login needs a name and a password', () => {
    expect(validateLogin({ username: ' ', password: '' })).toEqual({
      username: 'account.error.required',
      password: 'account.error.required',
    });
    expect(validateLogin({ username: 'ada', password: 'x' })).toEqual({});
  });

  it('register needs a valid e-mail and a password the engine accepts', () => {
    expect(validateRegister({ email: '', username: '', password: '' })).toEqual({
      email: 'account.error.required',
      password: 'account.error.required',
    });
    expect(validateRegister({ email: 'ada@', username: '', password: 'short' })).toEqual({
      email: 'account.error.email',
      password: 'account.error.passwordShort',
    });
    expect(validateRegister({ email: 'ada@example.com', username: '', password: 'long enough' })).toEqual({});
  });

  it('counts password length in characters, as the engine does', () => {
    expect(passwordLengthError('1234567')).toBe('account.error.passwordShort');
    expect(passwordLengthError('12345678')).toBeNull();
    // 8 emoji are 16 UTF-16 units but 8 characters.
    expect(passwordLengthError('🔑'.repeat(7))).toBe('account.error.passwordShort');
    expect(passwordLengthError('🔑'.repeat(8))).toBeNull();
    expect(passwordLengthError('x'.repeat(257))).toBe('account.error.passwordLong');
  });

  it('the reset request needs a username or e-mail', () => {
    expect(validateEmailRequest('  ')).toEqual({ login: 'account.error.required' });
    expect(validateEmailRequest('ada')).toEqual({});
  });
});

describe('password change', () => {
  it('new password and confirmation must match (the spec’s message)', () => {
    expect(
      validatePasswordChange({ current: 'old-password', password: 'new-password', confirm: 'new-passwort' }),
    ).toEqual({ confirm: 'account.error.passwordMismatch' });
    expect(
      validatePasswordChange({ current: 'old-password', password: 'new-password', confirm: 'new-password' }),
    ).toEqual({});
  });

  it('asks for the current password, except in the reset form', () => {
    expect(validatePasswordChange({ current: '', password: 'new-password', confirm: 'new-password' })).toEqual({
      current: 'account.error.required',
    });
    expect(
      validatePasswordChange(
        { current: '', password: 'new-password', confirm: 'new-password' },
        { needsCurrent: false },
      ),
    ).toEqual({});
  });

  it('reports a short password on the password field, not as a mismatch', () => {
    expect(validatePasswordChange({ current: 'x', password: 'short', confirm: 'short' })).toEqual({
      password: 'account.error.passwordShort',
    });
    expect(validatePasswordChange({ current: 'x', password: '', confirm: '' })).toEqual({
      password: 'account.error.required',
      confirm: 'account.error.required',
    });
  });
});

describe('my details', () => {
  const form = (over: Partial<DetailsForm> = {}): DetailsForm => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    billing: emptyAddress(),
    shipping: emptyAddress(),
    ...over,
  });
  const noStates = () => undefined;

  it('empty addresses stay optional', () => {
    expect(addressStarted(emptyAddress())).toBe(false);
    // Names copied from the account and a country from the shipping estimate are not a started address.
    expect(
      addressStarted({ ...emptyAddress('DE'), firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }),
    ).toBe(false);
    expect(addressStarted({ ...emptyAddress(), postcode: '10115' })).toBe(true);
    expect(validateDetails(form(), noStates)).toEqual({});
  });

  it('needs a valid account e-mail', () => {
    expect(validateDetails(form({ email: '' }), noStates)).toEqual({ email: 'account.error.required' });
    expect(validateDetails(form({ email: 'ada' }), noStates)).toEqual({ email: 'account.error.email' });
  });

  it('a started address must be complete as the checkout needs it; the billing e-mail may be left to the account’s', () => {
    const billing = { ...emptyAddress(), city: 'Berlin' };
    const errors = validateDetails(form({ billing }), noStates);
    expect(errors).toMatchObject({
      'billing.firstName': 'checkout.error.required',
      'billing.address1': 'checkout.error.required',
      'billing.country': 'checkout.error.required',
    });
    expect(errors['billing.email']).toBeUndefined();
    const complete = {
      ...emptyAddress('DE'),
      firstName: 'Ada',
      lastName: 'L',
      address1: 'Hauptstraße 1',
      city: 'Berlin',
      postcode: '10115',
    };
    expect(validateDetails(form({ billing: complete, shipping: complete }), () => [])).toEqual({});
    // A state is required where the country's rules say so and the engine has its list: not in Germany.
    expect(validateDetails(form({ shipping: complete }), () => [{ code: 'DE-BE', name: 'Berlin' }])).toEqual({});
    const american = { ...complete, country: 'US', city: 'Arlington', postcode: '22201' };
    expect(validateDetails(form({ shipping: american }), () => [{ code: 'VA', name: 'Virginia' }])).toEqual({
      'shipping.state': 'checkout.error.required',
    });
  });

  it('asks for the current password only when the e-mail changes, and sends it only then', () => {
    expect(changesEmail(' ADA@example.com ', 'ada@example.com')).toBe(false);
    expect(changesEmail('grace@example.com', 'ada@example.com')).toBe(true);
    expect(changesEmail('grace@example.com', null)).toBe(false);
    expect(validateDetails(form({ email: 'grace@example.com' }), noStates, 'ada@example.com')).toEqual({
      currentPassword: 'account.error.currentRequiredForEmail',
    });
    expect(
      validateDetails(form({ email: 'grace@example.com', currentPassword: 'secret-1' }), noStates, 'ada@example.com'),
    ).toEqual({});
    expect(validateDetails(form({ email: 'Ada@Example.com' }), noStates, 'ada@example.com')).toEqual({});
    expect(
      detailsInput(form({ email: 'grace@example.com', currentPassword: 'secret-1' }), 'ada@example.com')
        .currentPassword,
    ).toBe('secret-1');
    // A password typed before the e-mail was changed back stays in the browser.
    expect(detailsInput(form({ currentPassword: 'secret-1' }), 'ada@example.com')).not.toHaveProperty(
      'currentPassword',
    );
  });

  it('sends trimmed values and replaces the stored addresses', () => {
    const input = detailsInput(form({ firstName: ' Ada ', billing: { ...emptyAddress('DE'), city: ' Berlin ' } }));
    expect(input.firstName).toBe('Ada');
    expect(input.billing).toMatchObject({ city: 'Berlin', country: 'DE', overwrite: true });
    // No country is null (CountriesEnum has no empty value).
    expect(input.shipping).toMatchObject({ overwrite: true, city: '', country: null });
  });
});
