// GET /admin/invoices/{id}: an invoice or credit note as PDF for the shop manager (admin session required).
import type { APIRoute } from 'astro';
import { ADMIN_RESPONSE_HEADERS, openAdminPage } from '../../../server/admin/web/page.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const admin = await openAdminPage(context);
  if (admin instanceof Response) return admin;
  const headers = new Headers(ADMIN_RESPONSE_HEADERS);
  if (admin.setCookie) headers.append('Set-Cookie', admin.setCookie);
  const id = /^\d{1,9}$/.test(context.params.id ?? '') ? Number(context.params.id) : 0;
  const row = id ? await admin.engine.invoices.get(id) : null;
  if (!row) {
    headers.set('Content-Type', 'text/plain; charset=utf-8');
    return new Response('There is no such invoice.', { status: 404, headers });
  }
  const pdf = await admin.engine.invoices.pdf(row);
  headers.set('Content-Type', 'application/pdf');
  headers.set('Content-Length', String(pdf.length));
  headers.set('Content-Disposition', `attachment; filename="${admin.engine.invoices.fileName(row)}"`);
  return new Response(new Uint8Array(pdf), { status: 200, headers });
};
