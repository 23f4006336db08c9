/**
 * GET /api/invoices/<token> (src/pages/api/invoices/[token].ts) and the shop manager's
 * /admin/invoices/<id> (src/pages/admin/invoices/[id].ts): the PDF of an invoice or credit note as an
 * attachment, never cached. The token is a signed link the order's readers get with the order
 * (invoices/service.ts); a refusal is plain text: 404 no such link, 403 tampered or expired.
 */
import type { InvoiceRow, InvoiceService } from './service.ts';

const COMMON = {
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function refuse(status: number, message: string, extra: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { ...COMMON, 'content-type': 'text/plain; charset=utf-8', ...extra },
  });
}

/** The PDF of one document as the download answer. */
export async function invoicePdfResponse(invoices: InvoiceService, row: InvoiceRow): Promise<Response> {
  const pdf = await invoices.pdf(row);
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      ...COMMON,
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'content-disposition': `attachment; filename="${invoices.fileName(row)}"`,
    },
  });
}

export async function handleInvoiceRequest(
  request: Request,
  token: string,
  invoices: InvoiceService,
): Promise<Response> {
  if (request.method !== 'GET') return refuse(405, 'Use GET.', { allow: 'GET' });
  if (!token) return refuse(404, 'There is no such invoice.');
  const found = await invoices.verify(token);
  if (found === 'expired')
    return refuse(
      403,
      'This invoice link has expired. Please open your order again and download the invoice from there.',
    );
  if (found === 'invalid') return refuse(403, 'Invalid invoice link.');
  return invoicePdfResponse(invoices, found);
}
