/** `npm run shop -- publish [--status]` (registered in src/server/cli.ts). */
import { parseArgs } from 'node:util';
import { getConfig } from '../config.ts';
import { createEngine } from '../engine/index.ts';
import { createPublisher, PublishBusyError, type PublishStatus } from './service.ts';

export function formatStatus(s: PublishStatus): string {
  return [
    `state:           ${s.state}${s.state === 'running' ? ` (since ${s.startedAt}, ${s.owner})` : ''}`,
    `last published:  ${s.lastPublishedAt ?? 'never'}${s.lastBuildId ? ` (build ${s.lastBuildId})` : ''}`,
    `static pages:    ${s.stale ? `stale${s.staleSince ? ` since ${s.staleSince}` : ''}` : 'up to date'}`,
    ...(s.error ? [`last error:      ${s.error}`] : []),
    ...(s.logTail.length && s.state !== 'idle' ? ['log:', ...s.logTail.slice(-15).map((l) => `  ${l}`)] : []),
  ].join('\n');
}

export const publishCommand = {
  summary: 'rebuild the static site from the current catalog and switch the server to it',
  usage: `publish [--status] [--verbose]
    --status         show whether a publish is running, when the site was last published and whether it is stale
    --verbose        print every line of the site build (default: its steps, errors and the outcome)`,
  async run(argv: string[]): Promise<void> {
    const { values } = parseArgs({
      args: argv,
      options: { status: { type: 'boolean' }, verbose: { type: 'boolean' } },
      strict: true,
    });
    const engine = await createEngine(getConfig(), { seed: false });
    try {
      // Astro lists every page it writes (thousands of lines); without --verbose only its steps and problems show.
      const worthShowing = (line: string, source: 'publish' | 'build') =>
        source === 'publish' || values.verbose || (/\[build\]|\[ERROR\]|error:/i.test(line) && !/\[WARN\]/.test(line));
      const publisher = createPublisher(engine, {
        onLog: (line, source) => worthShowing(line, source) && console.log(`  ${line}`),
      });
      if (values.status) {
        console.log(formatStatus(await publisher.status()));
        return;
      }
      let result;
      try {
        result = await publisher.run();
      } catch (err) {
        if (err instanceof PublishBusyError) throw new Error(err.message);
        throw err;
      }
      if (!result.ok) throw new Error(`${result.error}. The site that was live stays live.`);
      console.log(
        `Published build ${result.buildId} in ${Math.round(result.durationMs / 1000)} s; the server switches to it on its next request.`,
      );
    } finally {
      await engine.close();
    }
  },
};
