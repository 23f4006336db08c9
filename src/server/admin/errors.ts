/** The admin domain's refusals: a message for the operator and a stable code (GraphQL extensions.code). */
import { GraphQLError } from 'graphql';
import { CatalogInputError } from '../catalog/operator.ts';
import { CouponInputError } from '../coupons/operator.ts';

export type AdminErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'CONFLICT'
  | 'PAYMENT_FAILED';

export const FORBIDDEN_MESSAGE = 'You do not have permission to do that.';
export const LOGIN_REQUIRED_MESSAGE = 'You must be logged in as a shop manager to do that.';

export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    message: string,
    readonly code: AdminErrorCode = 'BAD_USER_INPUT',
  ) {
    super(message);
  }
}

/** Domain refusals → AdminError (the CLI prints them; GraphQL sends them with their code). */
export function asAdminError(err: unknown): AdminError | null {
  if (err instanceof AdminError) return err;
  if (err instanceof CatalogInputError || err instanceof CouponInputError) return new AdminError(err.message, err.code);
  return null;
}

export function toGraphQLError(err: unknown): unknown {
  const e = asAdminError(err);
  return e ? new GraphQLError(e.message, { extensions: { code: e.code } }) : err;
}
