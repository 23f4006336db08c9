/**
 * The Yoga plugin that resolves `Authorization: Bearer <authToken>` for every GraphQL request and puts
 * the account services and the login on the context. A logged-in request whose woocommerce-session is a
 * guest's (or another user's) is re-keyed to the customer's session (as in WooGraphQL, the transfer also
 * happens on later requests where the Bearer user differs from the session's). A customer's session
 * without a valid login (logged out, auth token expired or revoked, password reset, or no Bearer token
 * at all) is served as a new guest session: the session token alone never opens a customer's cart,
 * addresses or orders, nor books an order to them.
 */
import type { Plugin } from 'graphql-yoga';
import { clientAddress, rateLimitKeyForIp } from '../rate-limit/index.ts';
import { isCustomerSessionId, type SessionService, type SessionState } from '../session/service.ts';
import type { AccountServices } from '../context.ts';

/** The TCP peer: Astro passes `clientAddress`, node:http passes `req` (also used by the admin endpoint). */
export function socketAddressOf(context: Record<string, unknown>): string | null {
  if (typeof context.clientAddress === 'string') return context.clientAddress;
  const req = context.req as { socket?: { remoteAddress?: string } } | undefined;
  return req?.socket?.remoteAddress ?? null;
}

export function useAccounts(engine: () => Promise<{ accounts: AccountServices; sessions: SessionService }>): Plugin {
  return {
    async onContextBuilding({ context, extendContext }) {
      const e = await engine();
      const ctx = context as unknown as Record<string, unknown> & { request: Request; session?: SessionState };
      const ip = rateLimitKeyForIp(clientAddress(ctx.request, socketAddressOf(ctx), e.accounts.clientAddress));
      const auth = await e.accounts.auth.authenticate(ctx.request.headers.get('authorization'), ip);
      if (auth.viewer && ctx.session && ctx.session.customerId !== String(auth.viewer.id)) {
        if (ctx.session.customerId.startsWith('t_') || ctx.session.tokenError)
          await e.accounts.auth.handOverSession(ctx.session, auth.viewer.id);
        else {
          // Another customer's session token with this customer's login: use this customer's own session.
          ctx.session.customerId = String(auth.viewer.id);
          await e.sessions.reissue(ctx.session);
        }
      } else if (!auth.viewer && ctx.session && isCustomerSessionId(ctx.session.customerId)) {
        e.sessions.startGuest(ctx.session);
      }
      // role: 'guest' | 'customer' | 'shop_manager' — store operations check it (src/server/admin).
      extendContext({ accounts: e.accounts, auth, clientIp: ip, role: auth.viewer?.role ?? 'guest' } as never);
    },
  };
}
