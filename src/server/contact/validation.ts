/**
 * What the contact form accepts. The e-mail rule is the WHATWG one (`<input type=email>`), the same the
 * storefront's form checks before sending (src/islands/contact/email.ts; tests/api/contact.test.ts keeps
 * them in step) and the mailer requires for Reply-To.
 */
import { z } from 'zod';
import { isValidEmailAddress } from '../mail/index.ts';

/** Letters, digits, spaces and the usual phone punctuation; at least enough digits to be a number. */
const PHONE_PATTERN = /^\+?[0-9 ()./-]{4,40}$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const LINE_BREAKS_OR_CONTROLS = /[\u0000-\u001f\u007f]/;

const name = (label: string, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(100, `${label} is too long (at most 100 characters).`)
    .refine((v) => !LINE_BREAKS_OR_CONTROLS.test(v), `${label} must be on one line.`);

export const contactFormSchema = z.object({
  firstName: name('First name', 'Please enter your first name.'),
  lastName: name('Last name', 'Please enter your last name.'),
  email: z
    .string({ error: 'Please enter a valid email' })
    .trim()
    .refine((v) => isValidEmailAddress(v), 'Please enter a valid email'),
  phone: z
    .string({ error: 'Please enter a valid phone number.' })
    .trim()
    .refine(
      (v) => v === '' || (PHONE_PATTERN.test(v) && (v.match(/\d/g)?.length ?? 0) >= 4),
      'Please enter a valid phone number.',
    )
    .optional()
    .transform((v) => v ?? ''),
  message: z
    .string({ error: 'Please enter a message.' })
    .trim()
    .min(1, 'Please enter a message.')
    .max(5000, 'Your message is too long (at most 5,000 characters).')
    .refine((v) => !CONTROL_CHARACTERS.test(v), 'Your message contains characters that cannot be sent.'),
  'g-recaptcha-response': z.string().max(8192).optional(),
  /** The ALTCHA widget's payload when the shop uses the self-hosted check (../bot-check/altcha.ts checks it). */
  altcha: z.string().max(8192, 'Bot check failed: the verification is too long to be genuine.').optional(),
  /** Optional: helpers and the storefront may say which language the visitor reads. */
  locale: z
    .string()
    .regex(/^[a-z]{2}_[A-Z]{2}$/)
    .optional()
    .catch(undefined),
});

export type ContactForm = z.infer<typeof contactFormSchema>;

export type FieldErrors = Partial<Record<'firstName' | 'lastName' | 'email' | 'phone' | 'message', string>>;

export function parseContactForm(
  body: Record<string, unknown>,
): { ok: true; form: ContactForm } | { ok: false; errors: FieldErrors } {
  const result = contactFormSchema.safeParse(body);
  if (result.success) return { ok: true, form: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors: errors as FieldErrors };
}
