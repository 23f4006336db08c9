/**
 * "Delete my account": the logged-in customer confirms with their password (or, without one, with the
 * e-mailed link's key, auth/account-deletion.ts) and the account is erased (erase.ts). Refusals are said
 * in the shopper's language; a rate limit as the login's.
 */
import type { AccountContext } from '../context.ts';
import { accountErrors, requireViewer } from '../customers/resolvers.ts';
import { userErrors } from '../i18n/shopper-error.ts';

type Ctx = AccountContext;
type Mid = { clientMutationId?: string | null };

export const privacyResolvers = {
  RootMutation: {
    deleteAccount: async (
      _: unknown,
      { input }: { input: Mid & { password?: string | null; confirmationKey?: string | null } },
      ctx: Ctx,
    ) => {
      const viewer = requireViewer(ctx);
      await accountErrors(() =>
        userErrors(async () => {
          if (input.confirmationKey) ctx.accounts.deletion.checkLink(viewer, ctx.auth.sid, input.confirmationKey);
          else await ctx.accounts.deletion.checkPassword(viewer, input.password, ctx.auth.clientIp);
          await ctx.accounts.eraser.erase(viewer, { locale: ctx.locale });
        }, ctx.locale),
      );
      // The rest of this request runs without the login that is gone.
      ctx.auth = { ...ctx.auth, viewer: null, sid: null };
      return { clientMutationId: input.clientMutationId ?? null, deleted: true };
    },
    sendAccountDeletionLink: async (_: unknown, args: { input?: Mid | null }, ctx: Ctx) => {
      const viewer = requireViewer(ctx);
      await accountErrors(() =>
        userErrors(() => ctx.accounts.deletion.sendLink(viewer, ctx.auth.sid ?? '', ctx.locale), ctx.locale),
      );
      return { clientMutationId: args.input?.clientMutationId ?? null, success: true };
    },
  },
};
