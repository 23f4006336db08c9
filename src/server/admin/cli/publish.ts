/**
 * `publish [--status] [--verbose]`: rebuild the static site and switch the server to it. Inside the running
 * shop the build reads the catalog from the shop's own engine, as a publish from the web admin does.
 */
import { parseArgs } from 'node:util';
import { createPublisher, PublishBusyError, type PublishResult, type PublishStatus } from '../../publish/index.ts';
import type { CliCommand } from './common.ts';

function formatStatus(s: PublishStatus): string {
  return [
    `state:           ${s.state}${s.state === 'running' ? ` (since ${s.startedAt}, ${s.owner})` : ''}`,
    `last published:  ${s.lastPublishedAt ?? 'never'}${s.lastBuildId ? ` (build ${s.lastBuildId})` : ''}`,
    `static pages:    ${s.stale ? `stale${s.staleSince ? ` since ${s.staleSince}` : ''}` : 'up to date'}`,
    ...(s.error ? [`last error:      ${s.error}`] : []),
    ...(s.logTail.length && s.state !== 'idle' ? ['log:', ...s.logTail.slice(-15).map((l) => `  ${l}`)] : []),
  ].join('\n');
}

export const publishCommand: CliCommand = {
  summary: 'rebuild the static site from the current catalog and switch the server to it',
  usage: `publish [--status] [--verbose]
    --status         show whether a publish is running, when the site was last published and whether it is stale
    --verbose        print every line of the site build (default: its steps, errors and the outcome)`,
  async run(argv, ctx) {
    const { values } = parseArgs({
      args: argv,
      options: { status: { type: 'boolean' }, verbose: { type: 'boolean' } },
      strict: true,
    });
    const engine = await ctx.engine({ log: true });
    // Astro lists every page it writes (thousands of lines); without --verbose only its steps and problems show.
    const worthShowing = (line: string, source: 'publish' | 'build') =>
      source === 'publish' || values.verbose || (/\[build\]|\[ERROR\]|error:/i.test(line) && !/\[WARN\]/.test(line));
    const publisher = createPublisher(engine, {
      onLog: (line, source) => worthShowing(line, source) && ctx.io.out(`  ${line}`),
    });
    if (values.status) {
      ctx.io.out(formatStatus(await publisher.status()));
      return;
    }
    let result: PublishResult;
    try {
      result = await publisher.run();
    } catch (err) {
      if (err instanceof PublishBusyError) throw new Error(err.message);
      throw err;
    }
    if (!result.ok) throw new Error(`${result.error}. The site that was live stays live.`);
    ctx.io.out(
      `Published build ${result.buildId} in ${Math.round(result.durationMs / 1000)} s; the server switches to it on its next request.`,
    );
  },
};
