/**
 * The branded frame around every message, in both forms: an HTML page built from inline-styled tables
 * (mail clients ignore <style> blocks and most CSS layout) and a plain-text version that reads well on
 * its own, because many clients and every spam filter look at it.
 */
import { html, type HtmlValue, type SafeHtml } from './html.ts';

export type Brand = { shopName: string; shopUrl: string };

export const DEFAULT_BRAND: Brand = { shopName: 'Meshfront', shopUrl: 'https://meshfront.example' };

const COLORS = {
  ink: '#0f172a',
  muted: '#475569',
  accent: '#0e7490',
  page: '#f1f5f9',
  card: '#ffffff',
  rule: '#e2e8f0',
};

export type LayoutInput = {
  brand: Brand;
  /** Shown by some clients next to the subject in the inbox list; hidden in the body. */
  preheader: string;
  heading: string;
  bodyHtml: SafeHtml;
  bodyText: string;
  /** Why the reader got this message (a legal and deliverability nicety). */
  footerNote: string;
  /** The BCP 47 tag of the language the message is written in (default English). */
  language?: string;
};

export function renderHtmlLayout(input: LayoutInput): string {
  const { brand } = input;
  return html`<!doctype html>
<html lang="${input.language ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.heading}</title>
</head>
<body style="margin:0;padding:0;background:${COLORS.page};color:${COLORS.ink};font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
<div style="display:none;max-height:0;overflow:hidden;">${input.preheader}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:${COLORS.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:600px;background:${COLORS.card};border-radius:8px;">
<tr><td style="padding:20px 28px;border-bottom:3px solid ${COLORS.accent};">
<a href="${brand.shopUrl}" style="color:${COLORS.accent};font-size:22px;font-weight:700;text-decoration:none;">${brand.shopName}</a>
</td></tr>
<tr><td style="padding:28px;font-size:15px;line-height:1.55;">
<h1 style="margin:0 0 16px;font-size:21px;line-height:1.3;">${input.heading}</h1>
${input.bodyHtml}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid ${COLORS.rule};color:${COLORS.muted};font-size:12px;line-height:1.5;">
${input.footerNote}<br>
<a href="${brand.shopUrl}" style="color:${COLORS.muted};">${brand.shopName}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`.value;
}

export function renderTextLayout(input: LayoutInput): string {
  return [
    input.heading,
    '='.repeat(Math.min(input.heading.length, 72)),
    '',
    input.bodyText.trimEnd(),
    '',
    '-- ',
    input.footerNote,
    `${input.brand.shopName} · ${input.brand.shopUrl}`,
    '',
  ].join('\n');
}

/** Building blocks the message builders share, so every message looks alike. */
export const blocks = {
  paragraph: (...content: HtmlValue[]): SafeHtml => html`<p style="margin:0 0 14px;">${content}</p>`,
  button: (href: string, label: string): SafeHtml =>
    html`<p style="margin:20px 0;"><a href="${href}" style="display:inline-block;background:${COLORS.accent};color:#ffffff;padding:11px 20px;border-radius:6px;font-weight:600;text-decoration:none;">${label}</a></p>`,
  /** A link shown in full under a button, for clients that do not render buttons; `hint` in the mail's language. */
  fallbackLink: (href: string, hint = 'If the button does not work, copy this address into your browser:'): SafeHtml =>
    html`<p style="margin:0 0 14px;font-size:13px;color:${COLORS.muted};word-break:break-all;">${hint}<br><a href="${href}" style="color:${COLORS.accent};">${href}</a></p>`,
  /** Shopper text with its line breaks kept: each line escaped, joined with <br>. */
  multiline: (text: string): SafeHtml => {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    return html`${lines.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}`;
  },
  muted: (...content: HtmlValue[]): SafeHtml =>
    html`<p style="margin:0 0 14px;color:${COLORS.muted};font-size:13px;">${content}</p>`,
  colors: COLORS,
};
