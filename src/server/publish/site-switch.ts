/**
 * Which build the Node server serves, decided per request so a publish switches the site atomically.
 *
 *   <builds dir>/<id>/            one complete build (client/ + server/), written by a publish
 *   <builds dir>/<id>/publish.json  written last: a build without it is unfinished and never served
 *   <builds dir>/current          symlink to the live <id>, replaced with rename(2) (atomic)
 *
 * The server serves the newer of the deployed dist/ and the current published build (by the builtAt
 * in each build's client/latest-build.json), so rebuilding dist/ after a code change is not shadowed by
 * an older publish. A newly published build's server entry is imported in the background while the old
 * one keeps answering; requests switch to the new one only once it has loaded, and requests already
 * running finish on the old one. Nobody ever sees a half-written build.
 *
 * Imported by scripts/serve.mjs with Node's type stripping: erasable TypeScript, node: imports only.
 */
import fs from 'node:fs';
import path from 'node:path';

export const CURRENT_LINK = 'current';
export const PUBLISH_MARKER = 'publish.json';

/** MESHFRONT_BUILDS_DIR, else <MESHFRONT_DATA_DIR>/builds. */
export function buildsDirFromEnv(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env.MESHFRONT_BUILDS_DIR || path.join(env.MESHFRONT_DATA_DIR || 'var', 'builds'));
}

/** The live published build's directory, or null when nothing was published (or it is incomplete). */
export function currentPublishedDir(buildsDir: string): string | null {
  let target: string;
  try {
    target = fs.readlinkSync(path.join(buildsDir, CURRENT_LINK));
  } catch {
    return null;
  }
  const dir = path.resolve(buildsDir, target);
  return fs.existsSync(path.join(dir, PUBLISH_MARKER)) ? dir : null;
}

/** When a build was made: client/latest-build.json (every Astro build writes it), else its entry's mtime. */
export function builtAt(dir: string): number {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'client', 'latest-build.json'), 'utf8')) as {
      builtAt?: string;
    };
    const t = Date.parse(info.builtAt ?? '');
    if (!Number.isNaN(t)) return t;
  } catch {
    // fall through
  }
  try {
    return fs.statSync(path.join(dir, 'server', 'entry.mjs')).mtimeMs;
  } catch {
    return -Infinity;
  }
}

export type BuildSwitchOptions<T> = {
  /** The deployed build (dist/ or MESHFRONT_DIST_DIR). */
  distDir: string;
  buildsDir: string;
  /** Prepare a build for serving (import its server entry …). */
  load: (dir: string) => Promise<T>;
  log?: (message: string) => void;
  /** After a build failed to load, wait this long before trying it again. */
  retryMs?: number;
};

export type LiveBuild<T> = { dir: string; value: T };

export type BuildSwitch<T> = {
  /** The build to serve this request with (never waits once one build is live). */
  current(): Promise<LiveBuild<T>>;
  /** Resolves when the newest complete build is the live one (tests, logging). */
  settled(): Promise<LiveBuild<T>>;
};

export async function createBuildSwitch<T>(options: BuildSwitchOptions<T>): Promise<BuildSwitch<T>> {
  const log = options.log ?? ((m: string) => console.log(`[serve] ${m}`));
  const retryMs = options.retryMs ?? 30_000;
  const distBuiltAt = builtAt(options.distDir);
  const distUsable = fs.existsSync(path.join(options.distDir, 'server', 'entry.mjs'));
  const publishedTimes = new Map<string, number>();

  const wanted = (): string => {
    const published = currentPublishedDir(options.buildsDir);
    if (!published) return options.distDir;
    let t = publishedTimes.get(published);
    if (t === undefined) {
      t = builtAt(published);
      publishedTimes.set(published, t);
    }
    return !distUsable || t > distBuiltAt ? published : options.distDir;
  };

  let live: LiveBuild<T> | null = null;
  let loading: { dir: string; promise: Promise<LiveBuild<T>> } | null = null;
  const failedAt = new Map<string, number>();

  const startLoad = (dir: string) => {
    const promise = options.load(dir).then(
      (value) => {
        const next = { dir, value };
        if (live) log(`now serving ${dir}`);
        live = next;
        loading = null;
        return next;
      },
      (err: unknown) => {
        loading = null;
        failedAt.set(dir, Date.now());
        log(`could not load the build in ${dir}: ${(err as Error).message}`);
        throw err;
      },
    );
    loading = { dir, promise };
    return promise;
  };

  const current = async (): Promise<LiveBuild<T>> => {
    const dir = wanted();
    if (live && live.dir === dir) return live;
    if (loading?.dir === dir) return live ?? loading.promise;
    const failed = failedAt.get(dir);
    if (live && failed !== undefined && Date.now() - failed < retryMs) return live;
    const p = startLoad(dir);
    if (live) {
      p.catch(() => {});
      return live;
    }
    return p;
  };

  await current();
  return {
    current,
    async settled() {
      const now = await current();
      return loading ? loading.promise.catch(() => now) : now;
    },
  };
}
