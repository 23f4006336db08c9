/** writeReview, and the Comment status fields for a review that waits for approval. */
import type { AccountContext } from '../context.ts';
import { accountErrors } from '../customers/resolvers.ts';
import type { WriteReviewInput, WrittenReview } from './service.ts';

type Ctx = AccountContext;

export const reviewResolvers = {
  RootMutation: {
    writeReview: (
      _: unknown,
      { input }: { input: WriteReviewInput & { clientMutationId?: string | null } },
      ctx: Ctx,
    ) =>
      accountErrors(async () => {
        const review = await ctx.accounts.reviews.write(input, ctx.auth.viewer, ctx.auth.clientIp);
        return { clientMutationId: input.clientMutationId ?? null, rating: review.rating, review };
      }),
  },
  Comment: {
    // Catalog reviews (no status field) are the approved ones.
    approved: (r: Partial<WrittenReview>) => (r.status ? r.status === 'approved' : true),
    status: (r: Partial<WrittenReview>) => (r.status === 'pending' ? 'HOLD' : 'APPROVE'),
  },
};
