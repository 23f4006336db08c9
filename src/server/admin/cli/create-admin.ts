/**
 * `create-admin`: makes a shop manager — a new account, or an existing one promoted (or demoted back to
 * customer). The only way to grant the role: no web request can.
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { hashPassword, passwordProblem } from '../../auth/passwords.ts';
import { AccountError } from '../../customers/service.ts';
import { CliUsageError, withAdmin, type CliCommand } from './common.ts';

export const createAdminCommand: CliCommand = {
  summary: 'create a shop manager, or promote/demote an existing account',
  usage: `create-admin --username NAME --email ADDRESS [--password-stdin]
    create-admin --promote USERNAME_OR_EMAIL | --demote USERNAME_OR_EMAIL | --list
    --password-stdin   read the password from standard input (otherwise a random one is printed once)`,
  async run(argv, ctx) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        promote: { type: 'string' },
        demote: { type: 'string' },
        list: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
    const modes = [
      values.promote !== undefined,
      values.demote !== undefined,
      !!values.list,
      values.username !== undefined || values.email !== undefined,
    ].filter(Boolean).length;
    if (modes !== 1)
      throw new CliUsageError('Give either --username and --email (new account), --promote, --demote or --list.');
    await withAdmin(ctx, async (admin, engine) => {
      if (values.list) {
        const list = await admin.roles.shopManagers();
        ctx.io.out(
          list.length
            ? list.map((u) => `${u.id}\t${u.username}\t${u.email}`).join('\n')
            : 'There are no shop managers yet.',
        );
        return;
      }
      const login = values.promote ?? values.demote;
      if (login !== undefined) {
        const user = await engine.accounts.customers.findByLogin(login);
        if (!user) throw new Error(`No account with the username or e-mail "${login}".`);
        const role = values.promote !== undefined ? 'shop_manager' : 'customer';
        await admin.roles.setRole(user.id, role);
        // Existing logins carry the old role only until their next request: the role is read per request.
        ctx.io.out(
          `${user.username} <${user.email}> is now ${role === 'shop_manager' ? 'a shop manager' : 'a customer'}.`,
        );
        return;
      }
      if (!values.username || !values.email)
        throw new CliUsageError('A new shop manager needs --username and --email.');
      let password: string;
      let generated = false;
      if (values['password-stdin']) password = await ctx.io.stdin();
      else {
        password = crypto.randomBytes(18).toString('base64url');
        generated = true;
      }
      const problem = passwordProblem(password, { username: values.username, email: values.email });
      if (problem) throw new Error(problem);
      try {
        const user = await engine.accounts.customers.create({
          username: values.username,
          email: values.email,
          passwordHash: await hashPassword(password, engine.accounts.settings.scryptLog2N),
        });
        await admin.roles.setRole(user.id, 'shop_manager');
        ctx.io.out(`Created shop manager ${user.username} <${user.email}> (user ${user.id}).`);
        if (generated) ctx.io.out(`Password (shown once, change it after the first login): ${password}`);
      } catch (err) {
        if (err instanceof AccountError)
          throw new Error(
            `${err.message} To make an existing account a shop manager: create-admin --promote ${values.username}`,
          );
        throw err;
      }
    });
  },
};
