// POST /admin/logout: ends the admin login (revoked in the engine, cookie cleared) and shows the login page.
import type { APIRoute } from 'astro';
import { adminRequestBasics, seeOther } from '../../server/admin/web/page.ts';
import { adminLogout } from '../../server/admin/web/session.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const { engine, ip, https } = await adminRequestBasics(context);
  const clear = await adminLogout(engine, context.request.headers.get('cookie'), ip, https);
  return seeOther('/admin/login?done=logged-out', [clear]);
};
