/**
 * What the GraphQL endpoints log about an unexpected error (one that is answered "Unexpected error."):
 * one line with a request id, the endpoint, the operation's name, the field path and the error in
 * `errorSummary`'s words, then the stack frames. Never the variables, the document or the error's own
 * message as it stands: a failed checkout's database error holds the customer's billing details
 * (error-summary.ts), and the variables are the customer's input.
 *
 * `useErrorLogContext` notes, for each error of an execution, the request it belongs to (before Yoga
 * masks it); `logUnexpectedError` is called from the masking (yoga.ts maskUnexpectedErrors) and logs each
 * error once; `errorLogger` replaces Yoga's own logger, which would print the same error object again in
 * full.
 */
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { errorSummary, stackFrames } from '../error-summary.ts';

type ErrorContext = { requestId: string; operationName: string | null };

const contexts = new WeakMap<object, ErrorContext>();
const logged = new WeakSet<object>();

/** Notes the request id and operation name of every error an execution returns. */
export function useErrorLogContext(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!('errors' in result) || !result.errors?.length) return;
          const context: ErrorContext = {
            requestId: randomUUID(),
            operationName: args.operationName ?? operationNameOf(args.document),
          };
          for (const error of result.errors) contexts.set(error, context);
        },
      };
    },
  };
}

function operationNameOf(document: unknown): string | null {
  const definitions =
    (document as { definitions?: { kind?: string; name?: { value?: string } }[] } | null)?.definitions ?? [];
  return definitions.find((d) => d.kind === 'OperationDefinition')?.name?.value ?? null;
}

/** Marks an error as reported elsewhere (database-errors.ts counts its faults): Yoga's logger skips it. */
export function markLogged(error: unknown): void {
  if (error && typeof error === 'object') logged.add(error);
}

/** Logs an error that is about to be masked, once, without any data it carries. */
export function logUnexpectedError(endpoint: string, error: unknown): void {
  if (!error || typeof error !== 'object' || logged.has(error)) return;
  logged.add(error);
  if (process.env.MESHFRONT_LOG_ERRORS === '0') return;
  const context = contexts.get(error);
  const path = (error as { path?: unknown }).path;
  const where = [
    `request ${context?.requestId ?? randomUUID()}`,
    `operation ${context?.operationName ?? '(anonymous)'}`,
    ...(Array.isArray(path) && path.length ? [`path ${path.join('.')}`] : []),
  ].join(', ');
  const frames = stackFrames(error);
  console.error(
    `[meshfront] unexpected error while handling ${endpoint} request (${where}): ${errorSummary(error)}${frames.length ? `\n    ${frames.join('\n    ')}` : ''}`,
  );
}

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** An argument as a log may show it: Yoga's own words as they are, errors summarised, nothing else. */
const safe = (value: unknown) =>
  value instanceof Error
    ? errorSummary(value)
    : ['string', 'number', 'boolean'].includes(typeof value)
      ? value
      : `(${typeof value})`;

/**
 * Yoga's logger (its `logging` option): errors already logged by `logUnexpectedError` are not printed
 * again, any other error only as its summary; debug output (which includes request parameters) is off.
 */
export function errorLogger(): Record<LogLevel, (...args: unknown[]) => void> {
  return {
    debug: () => {},
    info: (...args) => console.info('[meshfront] graphql-yoga:', ...args.map(safe)),
    warn: (...args) => console.warn('[meshfront] graphql-yoga:', ...args.map(safe)),
    error: (...args) => {
      const shown = args.filter((a) => !(a && typeof a === 'object' && logged.has(a)));
      if (shown.length) console.error('[meshfront] graphql-yoga:', ...shown.map(safe));
    },
  };
}
