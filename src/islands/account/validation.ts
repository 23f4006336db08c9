/**
 * The account forms' rules as pure functions: what must be filled in, what an e-mail looks like, the
 * password length the engine accepts and that a new password matches its confirmation. Errors are
 * string keys (locales: account.error.*, checkout.error.*). The engine checks everything again (common
 * passwords, duplicates) and its message is shown as it comes; these rules only spare a round trip.
 * tests/unit/account-validation.test.ts covers them.
 */
import type { CustomerAddressInput as AddressInput, UpdateCustomerInput } from '../../graphql/generated/schema';
import type { CountryState } from '../../graphql/shapes';
import { isValidEmail, validateAddress, type AddressForm } from '../checkout/validation';

/** The engine's limits (src/server/auth/passwords.ts). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export type FormErrors = Partial<Record<string, string>>;

export function hasErrors(errors: FormErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** A password's length problem (counted in characters, as the engine does), or null. */
export function passwordLengthError(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'account.error.passwordShort';
  if (length > PASSWORD_MAX_LENGTH) return 'account.error.passwordLong';
  return null;
}

export function validateLogin(form: { username: string; password: string }): FormErrors {
  const errors: FormErrors = {};
  if (!form.username.trim()) errors.username = 'account.error.required';
  if (!form.password) errors.password = 'account.error.required';
  return errors;
}

export interface RegisterForm {
  email: string;
  username: string;
  password: string;
}

export function validateRegister(form: RegisterForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.email.trim()) errors.email = 'account.error.required';
  else if (!isValidEmail(form.email)) errors.email = 'account.error.email';
  if (!form.password) errors.password = 'account.error.required';
  else {
    const length = passwordLengthError(form.password);
    if (length) errors.password = length;
  }
  return errors;
}

export interface PasswordChangeForm {
  current: string;
  password: string;
  confirm: string;
}

/** Change password (current, new, confirmation) and the reset form (new, confirmation; `current` ignored). */
export function validatePasswordChange(form: PasswordChangeForm, { needsCurrent = true } = {}): FormErrors {
  const errors: FormErrors = {};
  if (needsCurrent && !form.current) errors.current = 'account.error.required';
  if (!form.password) errors.password = 'account.error.required';
  else {
    const length = passwordLengthError(form.password);
    if (length) errors.password = length;
  }
  if (!form.confirm) errors.confirm = 'account.error.required';
  else if (form.password && form.confirm !== form.password) errors.confirm = 'account.error.passwordMismatch';
  return errors;
}

export function validateEmailRequest(login: string): FormErrors {
  return login.trim() ? {} : { login: 'account.error.required' };
}

export interface DetailsForm {
  firstName: string;
  lastName: string;
  email: string;
  billing: AddressForm;
  shipping: AddressForm;
  /** Asked for only when the e-mail address changes: the engine requires it then. */
  currentPassword?: string;
}

/** True when `email` would change the account's address (`accountEmail`): the current password is needed then. */
export function changesEmail(email: string, accountEmail: string | null | undefined): boolean {
  return !!accountEmail && email.trim().toLowerCase() !== accountEmail.trim().toLowerCase();
}

/**
 * True when the address holds anything beyond what the shop fills in by itself: the names (copied from
 * the account) and the country/state (from the shipping estimate) do not count, so a customer who only
 * edits their name is not asked for a street.
 */
export function addressStarted(address: AddressForm): boolean {
  return (['company', 'address1', 'address2', 'city', 'postcode', 'phone'] as const).some(
    (field) => address[field].trim() !== '',
  );
}

/**
 * Names and e-mail (with the current password when the e-mail changes from `accountEmail`); an address
 * only once started, and then complete as the checkout wants it (so the checkout can use it as it is).
 * The billing e-mail may stay empty: the account's e-mail is used.
 */
export function validateDetails(
  form: DetailsForm,
  statesOf: (country: string) => readonly CountryState[] | undefined,
  accountEmail?: string | null,
): FormErrors {
  const errors: FormErrors = {};
  if (!form.email.trim()) errors.email = 'account.error.required';
  else if (!isValidEmail(form.email)) errors.email = 'account.error.email';
  else if (changesEmail(form.email, accountEmail) && !form.currentPassword)
    errors.currentPassword = 'account.error.currentRequiredForEmail';
  for (const kind of ['billing', 'shipping'] as const) {
    const address = form[kind];
    if (!addressStarted(address)) continue;
    const found = validateAddress(
      kind === 'billing' && !address.email.trim() ? { ...address, email: form.email } : address,
      { kind, statesOf },
    );
    Object.assign(errors, found);
  }
  return errors;
}

function addressInput(address: AddressForm): AddressInput {
  const out: AddressInput = {};
  for (const [key, value] of Object.entries(address) as [keyof AddressForm, string][]) out[key] = value.trim() as never;
  // The country is an enum on the wire: no country is null, not ''.
  out.country = (address.country.trim() || null) as AddressInput['country'];
  return out;
}

/**
 * The UpdateCustomer input for the details form (trimmed; addresses replace what is stored); the current
 * password goes along only when the e-mail changes from `accountEmail`.
 */
export function detailsInput(form: DetailsForm, accountEmail?: string | null): UpdateCustomerInput {
  return {
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    email: form.email.trim(),
    billing: { ...addressInput(form.billing), overwrite: true },
    shipping: { ...addressInput(form.shipping), overwrite: true },
    ...(changesEmail(form.email, accountEmail) && form.currentPassword
      ? { currentPassword: form.currentPassword }
      : {}),
  };
}
