/**
 * Login, token refresh, logout, registration, password reset, linking a provider login to an existing
 * account, e-mail verification and the "this wasn't me" report of an e-mail change: thin mapping to the
 * auth, OAuth and e-mail-change services.
 */
import { GraphQLError } from 'graphql';
import type { CustomerRow } from '../customers/service.ts';
import { accountErrors, customerOf, requireViewer } from '../customers/resolvers.ts';
import type { PendingAccountLink } from './oauth.ts';
import type { AccountContext } from '../context.ts';

type Ctx = AccountContext;
type Mid = { clientMutationId?: string | null };

/** Tokens for a fresh login, the guest session handed over, and the payload fields every login returns. */
export async function completeLogin(ctx: Ctx, loggedIn: CustomerRow) {
  // The account's mails (password reset, e-mail verification) speak the language it was last used in.
  await ctx.accounts.customers.setLocale(loggedIn, ctx.locale);
  const user = { ...loggedIn, locale: ctx.locale };
  const tokens = await ctx.accounts.auth.issueTokens(user);
  await ctx.accounts.auth.handOverSession(ctx.session, user.id);
  // The rest of this request runs as the new customer (the payload's customer and user fields).
  ctx.auth = { ...ctx.auth, viewer: user, sid: tokens.sid, error: null };
  return {
    authToken: tokens.authToken,
    authTokenExpiration: tokens.authTokenExpiration,
    refreshToken: tokens.refreshToken,
    refreshTokenExpiration: tokens.refreshTokenExpiration,
    sessionToken: ctx.session.token,
    wooSessionToken: ctx.session.token,
    user,
    customer: await customerOf(ctx, user),
  };
}

/** A provider login that needs the account link first: no tokens, nobody logged in. */
function accountLinkPayload(ctx: Ctx, link: PendingAccountLink) {
  return {
    authToken: null,
    authTokenExpiration: null,
    refreshToken: null,
    refreshTokenExpiration: null,
    sessionToken: ctx.session.token,
    wooSessionToken: ctx.session.token,
    user: null,
    customer: null,
    accountLink: {
      token: link.token,
      provider: link.provider,
      providerName: link.providerName,
      email: link.email,
      expiresAt: String(link.expiresAt),
    },
  };
}

function refuseLoggedIn(ctx: Ctx): void {
  if (ctx.auth.viewer) throw new GraphQLError('You are already logged in.', { extensions: { code: 'BAD_USER_INPUT' } });
}

type LoginArgs = {
  input: Mid & {
    provider?: string | null;
    credentials?: { username: string; password: string } | null;
    oauthResponse?: { code: string; state?: string | null } | null;
    username?: string | null;
    password?: string | null;
  };
};

/**
 * The login's provider and credentials. Headless Login names the provider; a storefront written for
 * WPGraphQL JWT Authentication sends `username` and `password` alone, which is the PASSWORD provider.
 */
function loginRequest(input: LoginArgs['input']): {
  provider: string;
  credentials: { username: string; password: string } | null;
} {
  const jwtForm = input.username != null || input.password != null;
  const provider = input.provider ?? (jwtForm ? 'PASSWORD' : null);
  if (!provider)
    throw new GraphQLError('Name a login provider, or send a username and a password.', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  const credentials =
    input.credentials ?? (jwtForm ? { username: input.username ?? '', password: input.password ?? '' } : null);
  return { provider, credentials };
}

export const authResolvers = {
  RootQuery: {
    loginClients: async (_: unknown, __: unknown, ctx: Ctx) => {
      const list = await ctx.accounts.oauth.loginClients(ctx.session.customerId);
      return list.length ? list : null;
    },
  },
  RootMutation: {
    login: async (_: unknown, { input }: LoginArgs, ctx: Ctx) => {
      if (ctx.auth.viewer)
        throw new GraphQLError('You are already logged in.', { extensions: { code: 'BAD_USER_INPUT' } });
      const { provider, credentials } = loginRequest(input);
      return accountErrors(async () => {
        let user: CustomerRow;
        if (provider === 'PASSWORD') {
          if (!credentials)
            throw new GraphQLError('The PASSWORD provider requires the use of the `credentials` input arg.', {
              extensions: { code: 'BAD_USER_INPUT' },
            });
          user = await ctx.accounts.auth.login(credentials.username, credentials.password, ctx.auth.clientIp);
        } else {
          if (!input.oauthResponse)
            throw new GraphQLError(`The ${provider} provider requires the use of the \`oauthResponse\` input arg.`, {
              extensions: { code: 'BAD_USER_INPUT' },
            });
          const outcome = await ctx.accounts.oauth.loginWithProvider(
            provider,
            input.oauthResponse,
            ctx.session.customerId,
            ctx.auth.clientIp,
          );
          if (outcome.pendingLink)
            return {
              clientMutationId: input.clientMutationId ?? null,
              ...accountLinkPayload(ctx, outcome.pendingLink),
            };
          user = outcome.user;
        }
        return { clientMutationId: input.clientMutationId ?? null, ...(await completeLogin(ctx, user)) };
      });
    },
    refreshToken: async (_: unknown, { input }: { input: Mid & { refreshToken: string } }, ctx: Ctx) => {
      const r = await ctx.accounts.auth.refresh(input.refreshToken);
      if (!r)
        return {
          clientMutationId: input.clientMutationId ?? null,
          authToken: null,
          authTokenExpiration: null,
          refreshToken: null,
          refreshTokenExpiration: null,
          success: false,
        };
      return {
        clientMutationId: input.clientMutationId ?? null,
        authToken: r.authToken,
        authTokenExpiration: r.authTokenExpiration,
        refreshToken: r.refreshToken,
        refreshTokenExpiration: r.refreshTokenExpiration,
        success: true,
      };
    },
    logout: async (
      _: unknown,
      { input }: { input: Mid & { refreshToken?: string | null; all?: boolean | null } },
      ctx: Ctx,
    ) => {
      const v = ctx.auth.viewer;
      let success: boolean | null = null;
      if (v && input.all) {
        await ctx.accounts.auth.revokeAll(v.id);
        success = true;
      } else {
        if (v && ctx.auth.sid) success = (await ctx.accounts.auth.revokeSession(ctx.auth.sid)) || success;
        if (input.refreshToken)
          success = (await ctx.accounts.auth.revokeByRefreshToken(input.refreshToken, v?.id)) || success;
      }
      // The customer's session ends with the login: the answer already carries an empty guest session.
      if (v) ctx.sessions.startGuest(ctx.session);
      return { clientMutationId: input.clientMutationId ?? null, success: v ? true : success };
    },
    registerCustomer: async (
      _: unknown,
      {
        input,
      }: {
        input: Mid & {
          email?: string | null;
          username?: string | null;
          password?: string | null;
          firstName?: string | null;
          lastName?: string | null;
          displayName?: string | null;
          billing?: Record<string, string | null> | null;
          shipping?: Record<string, string | null> | null;
          shippingSameAsBilling?: boolean | null;
        };
      },
      ctx: Ctx,
    ) => {
      if (ctx.auth.viewer)
        throw new GraphQLError('You are already logged in.', { extensions: { code: 'BAD_USER_INPUT' } });
      return accountErrors(async () => {
        let user = await ctx.accounts.auth.register({ ...input, locale: ctx.locale }, ctx.auth.clientIp);
        if (input.billing || input.shipping || input.displayName) {
          try {
            user = await ctx.accounts.customers.updateProfile(user.id, {
              billing: input.billing,
              shipping: input.shipping,
              shippingSameAsBilling: input.shippingSameAsBilling,
              displayName: input.displayName,
            });
          } catch {
            // The account exists; a bad address is left for the account page rather than failing the registration.
          }
        }
        const login = await completeLogin(ctx, user);
        return {
          clientMutationId: input.clientMutationId ?? null,
          authToken: login.authToken,
          authTokenExpiration: login.authTokenExpiration,
          refreshToken: login.refreshToken,
          refreshTokenExpiration: login.refreshTokenExpiration,
          sessionToken: login.sessionToken,
          customer: login.customer,
          viewer: user,
        };
      });
    },
    sendPasswordResetEmail: async (_: unknown, { input }: { input: Mid & { username: string } }, ctx: Ctx) =>
      accountErrors(async () => {
        await ctx.accounts.auth.sendPasswordReset(input.username, ctx.auth.clientIp);
        return { clientMutationId: input.clientMutationId ?? null, success: true, user: null };
      }),
    reportEmailChange: async (_: unknown, { input }: { input: Mid & { token: string } }, ctx: Ctx) =>
      accountErrors(async () => {
        const { maskedEmail } = await ctx.accounts.emailChange.report(input.token, ctx.auth.clientIp);
        return { clientMutationId: input.clientMutationId ?? null, success: true, email: maskedEmail };
      }),
    resetUserPassword: async (
      _: unknown,
      { input }: { input: Mid & { key?: string | null; login?: string | null; password?: string | null } },
      ctx: Ctx,
    ) =>
      accountErrors(async () => {
        const user = await ctx.accounts.auth.resetPassword(input.key, input.login, input.password, ctx.auth.clientIp);
        return { clientMutationId: input.clientMutationId ?? null, user };
      }),
    linkAccountWithPassword: async (
      _: unknown,
      { input }: { input: Mid & { token: string; password: string } },
      ctx: Ctx,
    ) => {
      refuseLoggedIn(ctx);
      return accountErrors(async () => {
        const user = await ctx.accounts.oauth.linkWithPassword(
          input.token,
          input.password,
          ctx.session.customerId,
          ctx.auth.clientIp,
        );
        return {
          clientMutationId: input.clientMutationId ?? null,
          ...(await completeLogin(ctx, user)),
          accountLink: null,
        };
      });
    },
    sendAccountLinkEmail: async (_: unknown, { input }: { input: Mid & { token: string } }, ctx: Ctx) => {
      refuseLoggedIn(ctx);
      return accountErrors(async () => {
        await ctx.accounts.oauth.sendLinkEmail(input.token, ctx.session.customerId, ctx.auth.clientIp);
        return { clientMutationId: input.clientMutationId ?? null, success: true };
      });
    },
    linkAccountFromEmail: async (_: unknown, { input }: { input: Mid & { key: string } }, ctx: Ctx) => {
      refuseLoggedIn(ctx);
      return accountErrors(async () => {
        const user = await ctx.accounts.oauth.linkFromEmail(input.key, ctx.session.customerId);
        return {
          clientMutationId: input.clientMutationId ?? null,
          ...(await completeLogin(ctx, user)),
          accountLink: null,
        };
      });
    },
    verifyEmail: async (_: unknown, { input }: { input: Mid & { key: string } }, ctx: Ctx) => {
      const viewer = requireViewer(ctx);
      return accountErrors(async () => {
        const user = await ctx.accounts.auth.verifyEmail(viewer, input.key);
        return { clientMutationId: input.clientMutationId ?? null, success: true, user };
      });
    },
    sendEmailVerification: async (_: unknown, { input }: { input?: Mid | null }, ctx: Ctx) => {
      const viewer = requireViewer(ctx);
      return accountErrors(async () => {
        await ctx.accounts.auth.sendEmailVerification(viewer, { requested: true });
        return { clientMutationId: input?.clientMutationId ?? null, success: true };
      });
    },
  },
};
