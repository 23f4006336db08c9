/**
 * The admin pages' way into the engine: the admin GraphQL endpoint, called in process. The pages send
 * the admin UI's own operation documents (src/server/admin/operations, with their fragments) through the
 * same Yoga instance /api/admin/graphql uses, with the operator's auth token — so the pages get exactly
 * the role check, validation, limits, trusted-document rule and error masking an HTTP client gets, and
 * there is one authorisation path for the admin, not two.
 *
 * Typed like the storefront's client: `call('adminProduct', { id })` checks the variables and gives the
 * result of that operation, both generated from the admin schema and the documents (`npm run codegen`).
 */
import { print } from 'graphql';
import type { AdminOperations } from '../../../graphql/generated/admin-operations.ts';
import { composeOperations } from '../../http/trusted-documents.ts';
import type { AdminYoga } from '../yoga.ts';
import { adminOperationsDir } from '../yoga.ts';

/** A refusal of the admin endpoint: the operator-facing message and its code (BAD_USER_INPUT, NOT_FOUND, CONFLICT…). */
export class AdminCallError extends Error {
  override name = 'AdminCallError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  /** The login no longer works (or lost the role) while the page was being served. */
  get sessionEnded(): boolean {
    return this.code === 'UNAUTHENTICATED' || this.code === 'FORBIDDEN';
  }
}

let documents: Map<string, string> | null = null;

/** The admin operations by name, each printed with the fragments it uses (read once per process). */
export function adminDocument(name: string): string {
  documents ??= new Map(composeOperations(adminOperationsDir()).map((o) => [o.name, print(o.document)]));
  const doc = documents.get(name);
  if (!doc) throw new Error(`The admin UI asked for an unknown operation "${name}" (not in ${adminOperationsDir()}).`);
  return doc;
}

export type AdminOperationName = keyof AdminOperations;
export type AdminVariables<N extends AdminOperationName> = AdminOperations[N]['variables'];
/** The `data` of an admin operation's answer. */
export type AdminResult<N extends AdminOperationName> = AdminOperations[N]['result'];

/** Variables are optional exactly when the operation has no required variable. */
type CallArgs<N extends AdminOperationName> =
  Record<string, never> extends AdminVariables<N> ? [variables?: AdminVariables<N>] : [variables: AdminVariables<N>];

export type AdminCaller = <N extends AdminOperationName>(operation: N, ...args: CallArgs<N>) => Promise<AdminResult<N>>;

/** A caller bound to one operator's auth token and client address. */
export function adminCaller(yoga: AdminYoga, authToken: string, clientAddress: string | undefined): AdminCaller {
  return async <N extends AdminOperationName>(operation: N, ...[variables]: CallArgs<N>) => {
    const request = new Request('http://admin.internal/api/admin/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${authToken}` },
      body: JSON.stringify({ operationName: operation, query: adminDocument(operation), variables: variables ?? {} }),
    });
    const response = await yoga.fetch(request, { clientAddress });
    const text = await response.text();
    let body: { data?: AdminResult<N> | null; errors?: { message: string; extensions?: { code?: string } }[] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new AdminCallError(`The admin endpoint answered ${response.status} without JSON.`, 'INTERNAL');
    }
    const error = body.errors?.[0];
    if (error) throw new AdminCallError(error.message, error.extensions?.code ?? 'INTERNAL');
    if (!body.data) throw new AdminCallError('The admin endpoint answered without data.', 'INTERNAL');
    return body.data;
  };
}
