/**
 * The accounts the admin browser test logs in with: a shop manager and a plain customer.
 *
 * Only the command line grants the shop-manager role (no web request can), and the embedded PGlite
 * database can be open in one process only — the web server's while the tests run. So the accounts are
 * made before the server starts: playwright.config.ts runs this file first in its webServer command
 * (`tsx tests/e2e/admin-accounts.ts && node scripts/serve.mjs`), with the server's environment
 * (MESHFRONT_DATA_DIR, PASSWORD_SCRYPT_LOG2N). Running it again is harmless: it resets the passwords and
 * roles to these. The spec imports only the constants.
 */
import { pathToFileURL } from 'node:url';

export const E2E_ADMIN = {
  username: 'e2e-shop-manager',
  email: 'e2e-shop-manager@meshfront.example',
  password: 'Operator-e2e-Pass-2026!',
};
export const E2E_CUSTOMER = {
  username: 'e2e-plain-customer',
  email: 'e2e-plain-customer@meshfront.example',
  password: 'Shopper-e2e-Pass-2026!',
};

async function ensureAccounts(): Promise<void> {
  const { createEngine } = await import('../../src/server/engine/index.ts');
  const { getConfig } = await import('../../src/server/config.ts');
  const { hashPassword } = await import('../../src/server/auth/passwords.ts');
  const { CustomerRoles } = await import('../../src/server/customers/operator.ts');
  // Seed like the server would on an empty database, so the catalog is there whichever starts first.
  const engine = await createEngine(getConfig(), { log: () => {} });
  try {
    const roles = new CustomerRoles(engine.database.db);
    for (const [account, role] of [
      [E2E_ADMIN, 'shop_manager'],
      [E2E_CUSTOMER, 'customer'],
    ] as const) {
      const passwordHash = await hashPassword(account.password, engine.accounts.settings.scryptLog2N);
      const existing = await engine.accounts.customers.findByLogin(account.username);
      const user =
        existing ??
        (await engine.accounts.customers.create({ username: account.username, email: account.email, passwordHash }));
      if (existing) await engine.accounts.customers.setPasswordHash(existing.id, passwordHash, { revokeTokens: false });
      await roles.setRole(user.id, role);
    }
    console.log(`[e2e] admin test accounts ready in ${getConfig().dataDir}`);
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureAccounts().catch((err) => {
    console.error('[e2e] could not create the admin test accounts:', err);
    process.exit(1);
  });
}
