/**
 * The engine's error messages as text for the shopper. WooCommerce's messages arrive HTML-escaped
 * ('Coupon &quot;x&quot; …') and some carry markup (a price in <span>s, a link): shown in the alert
 * banner or under a field they must read as plain text.
 */
const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ', euro: '€' };

export function plainText(message: string): string {
  const withoutTags = message.replace(/<[^>]*>/g, '');
  return withoutTags
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const value =
          code[1].toLowerCase() === 'x' ? Number.parseInt(code.slice(2), 16) : Number.parseInt(code.slice(1), 10);
        return Number.isFinite(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : whole;
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The message of an error (or anything thrown), as plain text. */
export function engineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return plainText(message);
}

/**
 * The locale key for the engine's "try again" answers (src/server/http/database-errors.ts): the database
 * is briefly unreachable, or its storage is full or read-only. Shown in the shopper's language; null for
 * any other error.
 */
const DATABASE_ERROR_KEYS: Readonly<Record<string, string>> = {
  DATABASE_UNAVAILABLE: 'checkout.error.unavailable',
  DATABASE_READ_ONLY: 'checkout.error.readOnly',
};

export function databaseErrorKey(error: unknown): string | null {
  const errors = (error as { errors?: readonly { extensions?: { code?: unknown } | null }[] } | null)?.errors;
  const code = errors?.[0]?.extensions?.code;
  return typeof code === 'string' ? (DATABASE_ERROR_KEYS[code] ?? null) : null;
}
