/**
 * One address block of the checkout (billing or shipping): name, company, country (from the engine's
 * allowed countries, named in the page's language), street, town, postcode and state as the country has
 * them (src/lib/address/rules.ts: "ZIP Code" and a required "State" list in the US, no state in Germany,
 * an optional "County" in the United Kingdom …), and for billing phone and e-mail. Errors show under each
 * field and are tied to it with aria-describedby.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { asksForVatId } from '../../lib/vat-id';
import { $allowedCountries, $countryStates, loadStates } from '../../stores/checkout';
import { countryRules, type AddressForm, type CheckoutErrors } from './validation';

export function fieldId(path: string): string {
  return `checkout-${path.replace(/\./g, '-')}`;
}

interface FieldProps {
  path: string;
  label: string;
  error?: string;
  required?: boolean;
  className?: string;
  children: (props: {
    id: string;
    name: string;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
    required?: boolean;
    className: string;
  }) => ReactNode;
}

const INPUT =
  'mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-main aria-[invalid=true]:border-red-600';

export function Field({ path, label, error, required, className = '', children }: FieldProps) {
  const id = fieldId(path);
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      {children({
        id,
        name: path,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
        required,
        className: INPUT,
      })}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700" data-field-error={path}>
          {error}
        </p>
      )}
    </div>
  );
}

export interface AddressFieldsProps {
  kind: 'billing' | 'shipping';
  value: AddressForm;
  onChange: (next: AddressForm) => void;
  errors: CheckoutErrors;
  t: Lookup;
  /** BCP 47 tag of the page, for country names. */
  lang: string;
  /** Names, phone and e-mail only (billing of an all-virtual cart when the shop hides the address). */
  contactOnly?: boolean;
  /** Shown under the VAT ID instead of its hint: what the shop made of it (checking, reverse charge …). */
  vatIdNote?: string | null;
}

export default function AddressFields({
  kind,
  value,
  onChange,
  errors,
  t,
  lang,
  contactOnly = false,
  vatIdNote = null,
}: AddressFieldsProps) {
  const countries = useStore($allowedCountries);
  const statesByCountry = useStore($countryStates);
  const states = value.country ? statesByCountry[value.country] : undefined;
  const local = countryRules(value.country, (country) => statesByCountry[country]);
  /** A field's label, marked optional when the country does not require it. */
  const label = (text: string, required: boolean) => (required ? text : t('checkout.field.optional', { label: text }));

  useEffect(() => {
    if (value.country && !contactOnly) loadStates(value.country).catch(() => {});
  }, [value.country, contactOnly]);

  const names = useMemo(() => {
    let display: Intl.DisplayNames | null = null;
    try {
      display = new Intl.DisplayNames([lang], { type: 'region' });
    } catch {
      display = null;
    }
    return (countries ?? [])
      .map((code) => ({ code, name: display?.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, lang));
  }, [countries, lang]);

  const set = (field: keyof AddressForm, fieldValue: string) => {
    const next = { ...value, [field]: fieldValue };
    // A state belongs to its country.
    if (field === 'country' && fieldValue !== value.country) next.state = '';
    onChange(next);
  };
  const err = (field: keyof AddressForm) => {
    const key = errors[`${kind}.${field}`];
    return key ? t(key) : undefined;
  };
  const auto = (token: string) => `${kind === 'shipping' ? 'shipping' : 'billing'} ${token}`;

  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <Field path={`${kind}.firstName`} label={t('checkout.field.firstName')} error={err('firstName')} required>
        {(p) => (
          <input
            {...p}
            autoComplete={auto('given-name')}
            value={value.firstName}
            onChange={(e) => set('firstName', e.target.value)}
          />
        )}
      </Field>
      <Field path={`${kind}.lastName`} label={t('checkout.field.lastName')} error={err('lastName')} required>
        {(p) => (
          <input
            {...p}
            autoComplete={auto('family-name')}
            value={value.lastName}
            onChange={(e) => set('lastName', e.target.value)}
          />
        )}
      </Field>
      {!contactOnly && (
        <>
          <Field path={`${kind}.company`} label={t('checkout.field.company')} className="sm:col-span-2">
            {(p) => (
              <input
                {...p}
                autoComplete={auto('organization')}
                value={value.company}
                onChange={(e) => set('company', e.target.value)}
              />
            )}
          </Field>
          <Field
            path={`${kind}.country`}
            label={t('checkout.field.country')}
            error={err('country')}
            required
            className="sm:col-span-2"
          >
            {(p) => (
              <select
                {...p}
                autoComplete={auto('country')}
                value={value.country}
                onChange={(e) => set('country', e.target.value)}
              >
                <option value="">
                  {countries ? t('checkout.field.chooseCountry') : t('checkout.loadingCountries')}
                </option>
                {names.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            path={`${kind}.address1`}
            label={t('checkout.field.address1')}
            error={err('address1')}
            required
            className="sm:col-span-2"
          >
            {(p) => (
              <input
                {...p}
                autoComplete={auto('address-line1')}
                value={value.address1}
                onChange={(e) => set('address1', e.target.value)}
              />
            )}
          </Field>
          <Field path={`${kind}.address2`} label={t('checkout.field.address2')} className="sm:col-span-2">
            {(p) => (
              <input
                {...p}
                autoComplete={auto('address-line2')}
                value={value.address2}
                onChange={(e) => set('address2', e.target.value)}
              />
            )}
          </Field>
          <Field
            path={`${kind}.city`}
            label={label(t(`checkout.field.cityLabel.${local.city.label}`), local.city.required)}
            error={err('city')}
            required={local.city.required}
          >
            {(p) => (
              <input
                {...p}
                autoComplete={auto('address-level2')}
                value={value.city}
                onChange={(e) => set('city', e.target.value)}
              />
            )}
          </Field>
          {!local.postcode.hidden && (
            <Field
              path={`${kind}.postcode`}
              label={label(t(`checkout.field.postcodeLabel.${local.postcode.label}`), local.postcode.required)}
              error={err('postcode')}
              required={local.postcode.required}
            >
              {(p) => (
                <input
                  {...p}
                  autoComplete={auto('postal-code')}
                  value={value.postcode}
                  onChange={(e) => set('postcode', e.target.value)}
                />
              )}
            </Field>
          )}
          {!local.state.hidden && (
            <Field
              path={`${kind}.state`}
              label={label(t(`checkout.field.stateLabel.${local.state.label}`), local.state.required)}
              error={err('state')}
              required={local.state.required}
              className="sm:col-span-2"
            >
              {(p) =>
                states && states.length > 0 ? (
                  <select
                    {...p}
                    autoComplete={auto('address-level1')}
                    value={value.state}
                    onChange={(e) => set('state', e.target.value)}
                  >
                    <option value="">{t('checkout.field.chooseOption')}</option>
                    {states.map((s) => (
                      <option key={s.code} value={s.code}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    {...p}
                    autoComplete={auto('address-level1')}
                    value={value.state}
                    onChange={(e) => set('state', e.target.value)}
                  />
                )
              }
            </Field>
          )}
        </>
      )}
      {kind === 'billing' && (
        <>
          <Field path="billing.phone" label={t('checkout.field.phone')}>
            {(p) => (
              <input
                {...p}
                type="tel"
                autoComplete="billing tel"
                value={value.phone}
                onChange={(e) => set('phone', e.target.value)}
              />
            )}
          </Field>
          <Field path="billing.email" label={t('checkout.field.email')} error={err('email')} required>
            {(p) => (
              <input
                {...p}
                type="email"
                autoComplete="billing email"
                value={value.email}
                onChange={(e) => set('email', e.target.value)}
              />
            )}
          </Field>
          {!contactOnly && asksForVatId(value.country) && (
            <Field
              path="billing.vatId"
              label={t('checkout.field.vatId')}
              error={err('vatId')}
              className="sm:col-span-2"
            >
              {(p) => (
                <>
                  <input
                    {...p}
                    aria-describedby={[p['aria-describedby'], `${p.id}-hint`].filter(Boolean).join(' ')}
                    autoComplete="off"
                    spellCheck={false}
                    value={value.vatId}
                    onChange={(e) => set('vatId', e.target.value)}
                    data-vat-id
                  />
                  <p id={`${p.id}-hint`} className="mt-1 text-xs text-gray-600">
                    {vatIdNote ?? t('checkout.field.vatIdHint')}
                  </p>
                </>
              )}
            </Field>
          )}
        </>
      )}
    </div>
  );
}
