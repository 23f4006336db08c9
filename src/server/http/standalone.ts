/**
 * `npm run api`: the GraphQL endpoint alone on node:http (PORT, default 4000), for deployments that
 * serve the static site from a CDN and run N API processes behind a load balancer.
 */
import { createServer } from 'node:http';
import { getConfig } from '../config.ts';
import { getEngine } from '../engine.ts';
import { getYoga } from './yoga.ts';

const config = getConfig();
const engine = await getEngine();
const yoga = getYoga();
const server = createServer(yoga);
server.listen(config.port, config.host, () => {
  console.log(`[meshfront] GraphQL API on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/graphql (${engine.database.kind})`);
});

async function shutdown(signal: string) {
  console.log(`[meshfront] ${signal}: closing`);
  server.close();
  await engine.close().catch(() => {});
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
