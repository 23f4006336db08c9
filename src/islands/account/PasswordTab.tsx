/**
 * Change password: the current one (the engine requires it), the new one and its confirmation. The
 * engine ends the customer's other logins; this one stays.
 */
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import { $viewer } from '../../stores/viewer';
import { accountErrorText } from './messages';
import { BUTTON, FormNotice, NewPasswordFields, Section, TextField, type Notice } from './ui';
import { hasErrors, validatePasswordChange, type FormErrors, type PasswordChangeForm } from './validation';

const EMPTY: PasswordChangeForm = { current: '', password: '', confirm: '' };

export default function PasswordTab({ t }: { t: Lookup }) {
  const viewer = useStore($viewer);
  const [form, setForm] = useState<PasswordChangeForm>(EMPTY);
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validatePasswordChange(form);
    setErrors(found);
    if (hasErrors(found)) {
      // The mismatch is the spec's message for the whole form, so it goes in the alert region too.
      setNotice(
        found.confirm === 'account.error.passwordMismatch'
          ? { tone: 'error', text: t('account.error.passwordMismatch') }
          : null,
      );
      const first = (['current', 'password', 'confirm'] as const).find((field) => found[field]);
      if (first) document.getElementById(`password-${first}`)?.focus();
      return;
    }
    if (!viewer?.id) {
      setNotice({ tone: 'error', text: t('account.password.failed') });
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      await accountRequest('updatePassword', { id: viewer.id, currentPassword: form.current, password: form.password });
      setForm(EMPTY);
      setNotice({ tone: 'success', text: t('account.password.changed') });
    } catch (error) {
      setNotice({ tone: 'error', text: accountErrorText(error, t, 'account.password.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t('account.password.title')} id="password-title">
      <form onSubmit={submit} noValidate className="max-w-md space-y-4" data-account-password aria-busy={busy}>
        {/* Password managers want the account name next to a password change. */}
        <input type="text" name="username" autoComplete="username" value={viewer?.username ?? ''} readOnly hidden />
        <TextField
          id="password-current"
          label={t('account.field.currentPassword')}
          type="password"
          value={form.current}
          onChange={(v) => setForm({ ...form, current: v })}
          autoComplete="current-password"
          required
          error={errors.current && t(errors.current)}
        />
        <NewPasswordFields
          t={t}
          idPrefix="password"
          password={form.password}
          confirm={form.confirm}
          errors={errors}
          onChange={(field, v) => setForm({ ...form, [field]: v })}
        />
        <FormNotice notice={notice} />
        <button type="submit" className={BUTTON} disabled={busy}>
          {busy ? t('account.password.saving') : t('account.password.save')}
        </button>
      </form>
    </Section>
  );
}
