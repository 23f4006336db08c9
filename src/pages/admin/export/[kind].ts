// GET /admin/export/{contact-messages|newsletter-subscribers}[?status=…]: the CSV download (admin session required).
import type { APIRoute } from 'astro';
import { ADMIN_RESPONSE_HEADERS, openAdminPage } from '../../../server/admin/web/page.ts';
import { AdminCallError } from '../../../server/admin/web/client.ts';
import { labelled, SUBSCRIBER_STATUS_LABELS } from '../../../server/admin/web/format.ts';
import type { AdminExportKind } from '../../../graphql/generated/admin-schema.ts';

export const prerender = false;

const KINDS: Record<string, AdminExportKind> = {
  'contact-messages': 'CONTACT_MESSAGES',
  'newsletter-subscribers': 'NEWSLETTER_SUBSCRIBERS',
};
const STATUSES = labelled(SUBSCRIBER_STATUS_LABELS);

export const GET: APIRoute = async (context) => {
  const admin = await openAdminPage(context);
  if (admin instanceof Response) return admin;
  const kind = KINDS[context.params.kind ?? ''];
  const headers = new Headers(ADMIN_RESPONSE_HEADERS);
  if (admin.setCookie) headers.append('Set-Cookie', admin.setCookie);
  if (!kind) return new Response('Nothing to export here.', { status: 404, headers });
  const statusParam = context.url.searchParams.get('status');
  const status = (kind === 'NEWSLETTER_SUBSCRIBERS' && STATUSES.find((s) => s === statusParam)) || null;
  try {
    const { adminExportCsv: file } = await admin.call('adminExportCsv', { kind, status });
    headers.set('Content-Type', file.contentType);
    headers.set(
      'Content-Disposition',
      `attachment; filename="${String(file.fileName).replace(/[^A-Za-z0-9._-]/g, '_')}"`,
    );
    // The byte-order mark makes spreadsheet programs read the UTF-8 correctly.
    return new Response(`\uFEFF${file.csv}`, { status: 200, headers });
  } catch (err) {
    if (!(err instanceof AdminCallError)) throw err;
    headers.set('Content-Type', 'text/plain; charset=utf-8');
    return new Response(err.message, { status: 400, headers });
  }
};
