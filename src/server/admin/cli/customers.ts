/**
 * `customers export | erase | log`: a customer's privacy requests from the shell, through the same
 * service as /admin/customers (admin/customer-privacy.ts). Each export and erasure is written to the audit
 * log as `cli:<os user>`: the user the command runs as (inside the running shop, reached through the
 * local channel whose token only that user can read, the shop's user).
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { AdminError } from '../errors.ts';
import { CliUsageError, fromCwd, subcommand, table, withAdmin, type CliCommand } from './common.ts';

const SUBS = ['export', 'erase', 'log'];

/** Who runs the command, for the audit log. */
function cliActor(): string {
  let name = '';
  try {
    name = os.userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the numeric id still says who.
    name = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return `cli:${name.replace(/[^\w .@-]/g, '_').slice(0, 64) || 'unknown'}`;
}

export const customersCommand: CliCommand = {
  summary: "export or erase a customer's personal data (on their request), or show the audit log",
  usage: `customers export EMAIL [--out FILE]   everything the shop keeps about the customer, as JSON
                                          (default: standard output)
    customers erase EMAIL [--yes]         erase the customer: account, logins, addresses, wishlist,
                                          newsletter, messages; orders stay anonymised, invoices as
                                          issued. Without --yes nothing is erased.
    customers log [EMAIL] [--limit N]     the audit log of exports and erasures (of one address)`,
  async run(argv, ctx) {
    const [sub, rest] = subcommand(argv, SUBS);
    const { values, positionals } = parseArgs({
      args: rest,
      options: { out: { type: 'string' }, yes: { type: 'boolean' }, limit: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
    const allowed: Record<string, string[]> = { export: ['out'], erase: ['yes'], log: ['limit'] };
    for (const k of Object.keys(values))
      if (!allowed[sub]!.includes(k)) throw new CliUsageError(`--${k} does not apply to "customers ${sub}".`);
    if (positionals.length > 1 || (sub !== 'log' && positionals.length !== 1))
      throw new CliUsageError(`"customers ${sub}" takes one e-mail address.`);
    const email = positionals[0] ?? null;
    const limit = values.limit ? Number(values.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new CliUsageError(`--limit must be a whole number from 1 to 1000 (got ${JSON.stringify(values.limit)}).`);
    await withAdmin(ctx, async (admin) => {
      if (sub === 'export') {
        const { customer, json } = await admin.privacy.exportData(email!, cliActor());
        if (values.out) {
          const out = fromCwd(ctx, values.out);
          // Personal data: readable by the operator only; written beside the target and renamed.
          const tmp = `${out}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, `${json}\n`, { mode: 0o600 });
          fs.renameSync(tmp, out);
          ctx.io.out(`Exported the data of customer ${customer.id} to ${out}.`);
        } else {
          ctx.io.write(`${json}\n`);
          ctx.io.err(`Exported the data of customer ${customer.id}.`);
        }
        return;
      }
      if (sub === 'erase') {
        const customer = await admin.privacy.find(email!);
        if (!customer) throw new AdminError('There is no customer account with that e-mail address.', 'NOT_FOUND');
        if (!values.yes) {
          const orders = await admin.engine.orders.listByCustomer(String(customer.id), 10_000);
          ctx.io.out(
            `Customer ${customer.id} <${customer.email}>, registered ${customer.createdAt.toISOString().slice(0, 10)}, ${orders.length} ${orders.length === 1 ? 'order' : 'orders'}.`,
          );
          throw new AdminError('Nothing was erased. Run the command again with --yes to erase this customer.');
        }
        const r = await admin.privacy.erase(email!, customer.email, cliActor());
        ctx.io.out(
          `Erased customer ${r.customerId}: ${r.ordersAnonymised} orders anonymised (invoices kept as issued), ${r.reviewsAnonymised} reviews anonymised, ${r.reviewsDeleted} unpublished reviews, ${r.contactMessagesDeleted} contact messages${r.newsletterSignUpDeleted ? ', the newsletter sign-up' : ''} and ${r.mailsDeleted} mails deleted. A confirmation was mailed to the address.`,
        );
        return;
      }
      const { total, rows } = await admin.privacy.log(email, { limit, offset: 0 });
      ctx.io.out(
        rows.length
          ? table(
              ['when', 'who', 'what', 'customer'],
              rows.map((e) => [e.at.toISOString().slice(0, 19).replace('T', ' '), e.actor, e.action, e.customerId]),
            )
          : 'No entries.',
      );
      if (total > rows.length) ctx.io.out(`(${rows.length} of ${total})`);
    });
  },
};
