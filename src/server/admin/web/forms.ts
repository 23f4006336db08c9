/**
 * The admin forms' input: reading a posted form (URL-encoded only, size-limited: page routes have no
 * body limit in scripts/serve.mjs) and turning its text fields into typed values with a message per
 * field the page shows next to the input. Amounts are typed in euros ("12.50") and become integer cents.
 */
import { centsToDecimal, decimalToCents } from '../../../lib/money.ts';

export const MAX_FORM_BYTES = 64 * 1024;

export class FormReadError extends Error {
  override name = 'FormReadError';
}

/** The posted fields of a plain HTML form. */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded'))
    throw new FormReadError('The form was not sent as a form.');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new FormReadError('The form is too large.');
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) throw new FormReadError('The form is too large.');
  return new URLSearchParams(text);
}

export type FieldErrors = Record<string, string>;

/**
 * Reads fields and collects one message per invalid field. Each reader returns `undefined` when the
 * field is invalid (so the caller checks `ok` before using the values), `null` for an allowed empty field.
 */
export class FormFields {
  readonly errors: FieldErrors = {};
  constructor(readonly form: URLSearchParams) {}

  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  private fail(name: string, message: string): undefined {
    this.errors[name] ??= message;
    return undefined;
  }

  raw(name: string): string {
    return (this.form.get(name) ?? '').trim();
  }

  text(name: string, label: string, o: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.raw(name).replace(/\r\n?/g, '\n');
    if (o.required && !v) return this.fail(name, `${label} is required.`);
    if (v.length > (o.max ?? 500)) return this.fail(name, `${label} is too long (at most ${o.max ?? 500} characters).`);
    return v;
  }

  /** Euros → cents. Empty → null unless required. */
  money(
    name: string,
    label: string,
    o: { required?: boolean; min?: number; max?: number } = {},
  ): number | null | undefined {
    const v = this.raw(name).replace(/^€\s*/, '');
    if (!v) return o.required ? this.fail(name, `${label} is required.`) : null;
    const cents = /^\d{1,7}(?:\.\d{1,2})?$/.test(v) ? decimalToCents(v) : null;
    if (cents === null) return this.fail(name, `${label} must be an amount in euros, like 12 or 12.50.`);
    if (cents < (o.min ?? 0)) return this.fail(name, `${label} must be at least €${centsToDecimal(o.min ?? 0)}.`);
    if (o.max !== undefined && cents > o.max)
      return this.fail(name, `${label} must be at most €${centsToDecimal(o.max)}.`);
    return cents;
  }

  /** A whole number. Empty → null unless required. */
  int(
    name: string,
    label: string,
    o: { required?: boolean; min?: number; max?: number } = {},
  ): number | null | undefined {
    const v = this.raw(name);
    if (!v) return o.required ? this.fail(name, `${label} is required.`) : null;
    if (!/^-?\d{1,9}$/.test(v)) return this.fail(name, `${label} must be a whole number.`);
    const n = Number(v);
    const min = o.min ?? 0;
    if (n < min) return this.fail(name, `${label} must be ${min} or more.`);
    if (o.max !== undefined && n > o.max) return this.fail(name, `${label} must be ${o.max} or less.`);
    return n;
  }

  /** A YYYY-MM-DD date (the browser's date input). Empty → null unless required. */
  date(name: string, label: string, o: { required?: boolean } = {}): string | null | undefined {
    const v = this.raw(name);
    if (!v) return o.required ? this.fail(name, `${label} is required.`) : null;
    const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : null;
    if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v)
      return this.fail(name, `${label} must be a date (YYYY-MM-DD).`);
    return v;
  }

  choice<T extends string>(
    name: string,
    label: string,
    allowed: readonly T[],
    o: { required?: boolean } = {},
  ): T | null | undefined {
    const v = this.raw(name);
    if (!v) return o.required ? this.fail(name, `Choose ${label.toLowerCase()}.`) : null;
    return (allowed as readonly string[]).includes(v)
      ? (v as T)
      : this.fail(name, `${label} must be one of: ${allowed.join(', ')}.`);
  }

  checked(name: string): boolean {
    return this.form.get(name) === 'on' || this.form.get(name) === '1';
  }

  /** The explicit "yes, do it" box of a destructive action. */
  confirmed(name: string, message: string): boolean {
    if (this.checked(name)) return true;
    this.fail(name, message);
    return false;
  }

  /** Comma- or line-separated values (slugs, e-mail addresses), trimmed, empty ones dropped. */
  list(name: string, label: string, pattern: RegExp, max = 100): string[] | undefined {
    const items = this.raw(name)
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length > max) return this.fail(name, `${label}: at most ${max} entries.`);
    const bad = items.find((s) => !pattern.test(s));
    if (bad) return this.fail(name, `${label}: "${bad.slice(0, 60)}" is not valid.`);
    return items;
  }
}

/** Cents → the euros text an input shows ("" for none). */
export function eurosInput(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : centsToDecimal(cents);
}
