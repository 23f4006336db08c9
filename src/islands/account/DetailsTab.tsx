/**
 * Personal information / my details: names, e-mail, billing and shipping address (UpdateCustomer).
 * Changing the e-mail address asks for the current password (the engine requires it and tells the
 * previous address); a wrong or missing one is shown at that field. The button says what is happening:
 * 'Updating', then 'Updated successfully' or 'Failed to update' (with the engine's reason beside it),
 * and returns to its label after a few seconds.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { vatIdErrorKey } from '../../lib/vat-id';
import { accountRequest } from '../../stores/account';
import { $countryStates, loadAllowedCountries } from '../../stores/checkout';
import { $customer, setCustomer } from '../../stores/customer';
import { $viewer, setViewer } from '../../stores/viewer';
import AddressFields from '../checkout/AddressFields';
import EmailVerificationNotice from './EmailVerificationNotice';
import PersonalDataSection from './PersonalDataSection';
import SavedCardsSection from './SavedCardsSection';
import AccountDeletionSection from './AccountDeletionSection';
import { addressFromCustomer } from '../checkout/validation';
import { accountErrorText, currentPasswordError } from './messages';
import { BUTTON, FormNotice, Section, TextField, type Notice } from './ui';
import { changesEmail, detailsInput, hasErrors, validateDetails, type DetailsForm } from './validation';

type ButtonState = 'idle' | 'updating' | 'updated' | 'failed';

function formFromCustomer(
  customer: ReturnType<typeof $customer.get>,
  viewer: ReturnType<typeof $viewer.get>,
): DetailsForm {
  return {
    firstName: customer?.firstName ?? viewer?.firstName ?? '',
    lastName: customer?.lastName ?? viewer?.lastName ?? '',
    email: customer?.email ?? viewer?.email ?? '',
    billing: addressFromCustomer(customer?.billing),
    shipping: addressFromCustomer(customer?.shipping),
  };
}

export default function DetailsTab({ t, lang }: { t: Lookup; lang: string }) {
  const customer = useStore($customer);
  const viewer = useStore($viewer);
  const states = useStore($countryStates);
  const [form, setForm] = useState<DetailsForm>(() => formFromCustomer(customer, viewer));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [state, setState] = useState<ButtonState>('idle');
  const [notice, setNotice] = useState<Notice>(null);
  const touched = useRef(false);
  const reset = useRef<ReturnType<typeof setTimeout> | null>(null);
  const accountEmail = viewer?.email ?? customer?.email ?? null;
  const emailChanging = changesEmail(form.email, accountEmail);

  useEffect(() => {
    loadAllowedCountries().catch(() => {});
    return () => {
      if (reset.current) clearTimeout(reset.current);
    };
  }, []);
  // The customer arrives with session start; fill the form then, unless the shopper already typed.
  useEffect(() => {
    if (!touched.current) setForm(formFromCustomer(customer, viewer));
  }, [customer, viewer]);

  const change = (next: DetailsForm) => {
    touched.current = true;
    setForm(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state === 'updating') return;
    const found = validateDetails(form, (country) => states[country], accountEmail);
    setErrors(found);
    if (hasErrors(found)) {
      const first = Object.keys(found)[0]!;
      document
        .getElementById(first.includes('.') ? `checkout-${first.replace('.', '-')}` : `details-${first}`)
        ?.focus();
      return;
    }
    if (reset.current) clearTimeout(reset.current);
    setState('updating');
    setNotice(null);
    try {
      const { updateCustomer } = await accountRequest('UpdateCustomer', { input: detailsInput(form, accountEmail) });
      const updated = updateCustomer?.customer ?? null;
      if (updated) {
        setCustomer(updated);
        const current = $viewer.get();
        if (current)
          setViewer({
            ...current,
            firstName: updated.firstName,
            lastName: updated.lastName,
            email: updated.email ?? current.email,
          });
      }
      touched.current = false;
      setForm((previous) => ({ ...previous, currentPassword: '' }));
      setState('updated');
      setNotice({
        tone: 'success',
        text: t(emailChanging ? 'account.details.emailChanged' : 'account.details.updated'),
      });
    } catch (error) {
      setState('failed');
      // A missing or wrong current password belongs to its field, which gets the focus.
      const passwordProblem = currentPasswordError(error);
      if (passwordProblem) {
        setErrors((previous) => ({ ...previous, currentPassword: passwordProblem }));
        document.getElementById('details-currentPassword')?.focus();
      }
      // A refused VAT ID is said at its field, in the customer's language.
      const vatKey = vatIdErrorKey(error);
      if (vatKey) {
        setErrors((previous) => ({ ...previous, 'billing.vatId': vatKey }));
        document.getElementById('checkout-billing-vatId')?.focus();
      }
      setNotice({ tone: 'error', text: vatKey ? t(vatKey) : accountErrorText(error, t, 'account.details.failed') });
    }
    reset.current = setTimeout(() => setState('idle'), 4000);
  };

  const label = {
    idle: t('account.details.save'),
    updating: t('account.details.updating'),
    updated: t('account.details.updated'),
    failed: t('account.details.failed'),
  }[state];
  const fieldError = (key: string | undefined) => (key ? t(key) : undefined);

  return (
    <div className="space-y-6">
      <form onSubmit={submit} noValidate className="space-y-6" data-account-details aria-busy={state === 'updating'}>
        <Section title={t('account.details.personal')} id="details-personal-title">
          <EmailVerificationNotice t={t} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              id="details-firstName"
              label={t('account.field.firstName')}
              value={form.firstName}
              onChange={(v) => change({ ...form, firstName: v })}
              autoComplete="given-name"
            />
            <TextField
              id="details-lastName"
              label={t('account.field.lastName')}
              value={form.lastName}
              onChange={(v) => change({ ...form, lastName: v })}
              autoComplete="family-name"
            />
            <TextField
              id="details-email"
              label={t('account.field.email')}
              type="email"
              value={form.email}
              onChange={(v) => change({ ...form, email: v })}
              autoComplete="email"
              required
              error={fieldError(errors.email)}
              className="sm:col-span-2"
            />
            {emailChanging && (
              <TextField
                id="details-currentPassword"
                label={t('account.field.currentPassword')}
                type="password"
                value={form.currentPassword ?? ''}
                onChange={(v) => change({ ...form, currentPassword: v })}
                autoComplete="current-password"
                required
                hint={t('account.details.currentPasswordHint')}
                error={fieldError(errors.currentPassword)}
                className="sm:col-span-2"
              />
            )}
          </div>
        </Section>
        <Section title={t('account.details.billing')} id="details-billing-title">
          <AddressFields
            kind="billing"
            value={form.billing}
            onChange={(billing) => change({ ...form, billing })}
            errors={errors}
            t={t}
            lang={lang}
          />
        </Section>
        <Section title={t('account.details.shipping')} id="details-shipping-title">
          <AddressFields
            kind="shipping"
            value={form.shipping}
            onChange={(shipping) => change({ ...form, shipping })}
            errors={errors}
            t={t}
            lang={lang}
          />
        </Section>
        <div className="space-y-3">
          <FormNotice notice={notice} />
          <button type="submit" className={BUTTON} disabled={state === 'updating'} data-details-state={state}>
            {label}
          </button>
        </div>
      </form>
      <SavedCardsSection t={t} />
      <PersonalDataSection t={t} />
      <AccountDeletionSection t={t} />
    </div>
  );
}
