// POST /admin/customers/export (email): the customer's data as a JSON download, written to the audit log
// (a POST: handing out a customer's data is an action the log records, never a link to follow).
import type { APIRoute } from 'astro';
import { ADMIN_RESPONSE_HEADERS, openAdminPage } from '../../../server/admin/web/page.ts';
import { AdminCallError } from '../../../server/admin/web/client.ts';
import { FormReadError } from '../../../server/admin/web/forms.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const admin = await openAdminPage(context);
  if (admin instanceof Response) return admin;
  const headers = new Headers(ADMIN_RESPONSE_HEADERS);
  if (admin.setCookie) headers.append('Set-Cookie', admin.setCookie);
  try {
    const f = await admin.form();
    const email = f.text('email', 'E-mail address', { required: true, max: 254 });
    if (!email) throw new FormReadError(Object.values(f.errors).join(' ') || 'Enter an e-mail address.');
    const { adminExportCustomerData: file } = await admin.call('adminExportCustomerData', { email });
    headers.set('Content-Type', file.contentType);
    headers.set('Content-Disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
    return new Response(file.json, { status: 200, headers });
  } catch (err) {
    if (!(err instanceof AdminCallError || err instanceof FormReadError)) throw err;
    headers.set('Content-Type', 'text/plain; charset=utf-8');
    return new Response(err.message, {
      status: err instanceof AdminCallError && err.code === 'NOT_FOUND' ? 404 : 400,
      headers,
    });
  }
};
