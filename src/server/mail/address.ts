/**
 * E-mail address and header checks. Everything that ends up in a message header passes through here, so
 * a value from a form (a name, an address, a subject) can never start a new header line or smuggle in a
 * second recipient.
 */

/** The WHATWG "valid e-mail address" (what <input type=email> accepts): one address, no display name. */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** RFC 5321 caps a forward path at 256 octets including the angle brackets. */
const MAX_ADDRESS_LENGTH = 254;

export class MailError extends Error {
  override name = 'MailError';
}

export function isValidEmailAddress(value: string): boolean {
  return value.length <= MAX_ADDRESS_LENGTH && EMAIL_PATTERN.test(value);
}

/** A single bare address or a MailError naming the field. */
export function requireEmailAddress(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isValidEmailAddress(value)) {
    throw new MailError(`${field} must be one e-mail address like name@example.com (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** CR or LF in a header value would end the header; NUL and other controls have no business there either. */
// eslint-disable-next-line no-control-regex
const HEADER_BREAKING = /[\r\n\u0000]/;

export function requireHeaderText(value: unknown, field: string, maxLength = 998): string {
  if (typeof value !== 'string' || value.trim() === '') throw new MailError(`${field} must be a non-empty string`);
  if (HEADER_BREAKING.test(value)) throw new MailError(`${field} must not contain line breaks`);
  if (value.length > maxLength) throw new MailError(`${field} is longer than ${maxLength} characters`);
  return value;
}

export type Mailbox = { name: string; address: string };

/**
 * Parses the sender setting: `shop@example.com` or `Display Name <shop@example.com>`. The display name may
 * not contain quotes, angle brackets or line breaks, so it needs no quoting rules of its own.
 */
export function parseMailbox(value: string): Mailbox | null {
  const bare = value.trim();
  if (isValidEmailAddress(bare)) return { name: '', address: bare };
  const m = /^([^"<>\r\n\u0000]*?)\s*<([^<>\s]+)>$/.exec(bare);
  if (!m || !isValidEmailAddress(m[2]!)) return null;
  return { name: m[1]!.trim(), address: m[2]! };
}

/**
 * Extra headers a caller may add (List-Unsubscribe, X-Meshfront-*, Auto-Submitted …). Headers that carry
 * addresses or structure are set by the mailer itself and cannot be overridden through this door.
 */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'sender',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'return-path',
  'received',
]);

export function requireExtraHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,75}$/.test(name))
      throw new MailError(`header name ${JSON.stringify(name)} is not a valid header field name`);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new MailError(`header ${name} is set by the mailer and cannot be passed in headers`);
    out[name] = requireHeaderText(value, `header ${name}`);
  }
  return out;
}
