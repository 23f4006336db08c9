/**
 * /my-account for a guest: the login form (username or e-mail + password), the register form, the
 * external providers' buttons (from session start's loginClients) and the way to a forgotten password.
 * A successful login or registration sets the viewer; AccountPage then shows the account itself.
 */
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { login, NoViewerError, register } from '../../stores/account';
import { $loginClients } from '../../stores/customer';
import { accountErrorText } from './messages';
import { rememberProvider } from './providers';
import { BUTTON, FormNotice, Section, SubmitWithForgotPassword, TextField, type Notice } from './ui';
import { hasErrors, validateLogin, validateRegister, type FormErrors } from './validation';

interface Props {
  t: Lookup;
  localePrefix: string;
  /** Called after a successful login or registration, with what to announce. */
  onLoggedIn: (message: string) => void;
}

function focusFirst(errors: FormErrors, ids: Record<string, string>) {
  const first = Object.keys(ids).find((field) => errors[field]);
  if (first) document.getElementById(ids[first]!)?.focus();
}

export function LoginForm({ t, localePrefix, onLoggedIn }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const ids = { username: 'login-username', password: 'login-password' };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateLogin({ username, password });
    setErrors(found);
    if (hasErrors(found)) {
      setNotice(null);
      focusFirst(found, ids);
      return;
    }
    setBusy(true);
    setNotice({ tone: 'info', text: t('account.loggingIn') });
    try {
      await login(username, password);
      onLoggedIn(t('account.loggedIn'));
    } catch (error) {
      setNotice({
        tone: 'error',
        text:
          error instanceof NoViewerError
            ? t('account.error.noViewer')
            : accountErrorText(error, t, 'account.error.login'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-login-form aria-busy={busy}>
      <TextField
        id={ids.username}
        label={t('account.field.usernameOrEmail')}
        value={username}
        onChange={setUsername}
        autoComplete="username"
        required
        error={errors.username && t(errors.username)}
      />
      <TextField
        id={ids.password}
        label={t('account.field.password')}
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        required
        error={errors.password && t(errors.password)}
      />
      <FormNotice notice={notice} />
      <SubmitWithForgotPassword
        label={busy ? t('account.loggingIn') : t('account.login')}
        disabled={busy}
        localePrefix={localePrefix}
        forgotLabel={t('account.forgotPassword')}
      />
    </form>
  );
}

function RegisterForm({ t, onLoggedIn }: Props) {
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const ids = { email: 'register-email', username: 'register-username', password: 'register-password' };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateRegister({ email, username, password });
    setErrors(found);
    if (hasErrors(found)) {
      setNotice(null);
      focusFirst(found, ids);
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      await register({ email, username, password });
      onLoggedIn(t('account.registered'));
    } catch (error) {
      setNotice({
        tone: 'error',
        text:
          error instanceof NoViewerError
            ? t('account.error.noViewer')
            : accountErrorText(error, t, 'account.error.register'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-register-form aria-busy={busy}>
      <TextField
        id={ids.email}
        label={t('account.field.email')}
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="email"
        required
        error={errors.email && t(errors.email)}
      />
      <TextField
        id={ids.username}
        label={t('account.field.usernameOptional')}
        value={username}
        onChange={setUsername}
        autoComplete="username"
        hint={t('account.hint.username')}
      />
      <TextField
        id={ids.password}
        label={t('account.field.password')}
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        required
        hint={t('account.hint.password')}
        error={errors.password && t(errors.password)}
      />
      <FormNotice notice={notice} />
      <button type="submit" className={BUTTON} disabled={busy}>
        {busy ? t('account.registering') : t('account.register')}
      </button>
    </form>
  );
}

function ProviderButtons({ t }: { t: Lookup }) {
  const clients = useStore($loginClients);
  const usable = clients.filter((c) => c.authorizationUrl).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  if (!usable.length) return null;
  return (
    <div className="mt-6 border-t border-gray-200 pt-5" data-login-providers>
      <p className="mb-3 text-sm text-gray-600">{t('account.orContinueWith')}</p>
      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {usable.map((client) => (
          <li key={`${client.provider}-${client.name}`}>
            <a
              href={client.authorizationUrl!}
              onClick={() => rememberProvider(client)}
              className="inline-flex w-full items-center justify-center gap-2 rounded-full border border-gray-300 bg-white px-5 py-2 text-sm font-medium text-gray-800 hover:border-main hover:text-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main sm:w-auto"
            >
              {t('account.continueWith', { name: client.name ?? client.provider ?? '' })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function LoggedOut(props: Props) {
  const { t } = props;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2" data-account-guest>
      <Section title={t('account.loginTitle')} id="account-login-title">
        <LoginForm {...props} />
        <ProviderButtons t={t} />
      </Section>
      <Section title={t('account.registerTitle')} id="account-register-title">
        <p className="mb-4 text-sm text-gray-600">{t('account.registerLead')}</p>
        <RegisterForm {...props} />
      </Section>
    </div>
  );
}
