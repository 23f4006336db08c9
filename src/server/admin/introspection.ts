/**
 * Introspection of the admin schema is for shop managers only: the schema names every store operation
 * (refunds, role changes, uploads), which a guest has no business mapping out. Where introspection is
 * allowed at all (development and test; production turns it off for everyone, see yoga.ts) a document
 * that asks for __schema or __type runs only for a logged-in shop manager — GraphiQL on
 * /api/admin/graphql works once it sends the manager's `Authorization: Bearer` header.
 *
 * The check runs at execution, once the request's login is known (validation runs before that).
 */
import { GraphQLError, Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isShopManager } from '../customers/operator.ts';
import type { AdminContext } from './resolvers.ts';

export const ADMIN_INTROSPECTION_FORBIDDEN =
  'Introspection of the admin schema is only for shop managers. Log in as one and send your Authorization header.';

function asksForIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD](node) {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true;
    },
  });
  return found;
}

export function useAdminIntrospectionForManagers(): Plugin<AdminContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (!asksForIntrospection(args.document)) return;
      const context = args.contextValue as Partial<AdminContext>;
      if (isShopManager(context.auth?.viewer)) return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(ADMIN_INTROSPECTION_FORBIDDEN, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } }),
        ],
      });
    },
  };
}
