/**
 * The e-mail rule the contact and newsletter forms check before sending: the WHATWG "valid e-mail
 * address" (what `<input type=email>` accepts), at most 254 characters — exactly what the server accepts
 * (src/server/mail/address.ts; tests/api/contact.test.ts checks the two agree).
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isValidEmail(value: string): boolean {
  const v = value.trim();
  return v.length <= 254 && EMAIL_PATTERN.test(v);
}
