// drizzle-kit: `npx drizzle-kit generate` writes a new SQL migration into src/server/db/migrations/
// from src/server/db/schema.ts. Commit the generated files; the engine applies them at start.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
});
