// An order's invoice or credit note (signed, short-lived link from Order.invoices): see src/server/invoices/http.ts.
import type { APIRoute } from 'astro';
import { getEngine } from '../../../server/engine/index.ts';
import { handleInvoiceRequest } from '../../../server/invoices/http.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request, params }) =>
  handleInvoiceRequest(request, params.token ?? '', (await getEngine()).invoices);
