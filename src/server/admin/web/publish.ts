/**
 * The admin's publish screen glue: one publisher per engine (src/server/publish), started from a form
 * post. `start()` returns once the build is under way; its outcome lands in the shared publish state
 * (the database), which the page reads — the page, not this process, follows the run, so a reload or
 * another operator on another API node sees the same status.
 */
import type { Engine } from '../../engine/index.ts';
import { createPublisher, PublishBusyError, type Publisher, type PublishStatus } from '../../publish/index.ts';

const publishers = new WeakMap<Engine, Publisher>();

function publisherFor(engine: Engine): Publisher {
  let p = publishers.get(engine);
  if (!p) {
    p = createPublisher(engine);
    publishers.set(engine, p);
  }
  return p;
}

export function publishStatus(engine: Engine): Promise<PublishStatus> {
  return publisherFor(engine).status();
}

/** Starts a publish; a refusal (one already running) comes back as a message for the operator. */
export async function startPublish(
  engine: Engine,
  actor: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    const { buildId, done } = await publisherFor(engine).start();
    console.log(`[meshfront] publish ${buildId} started by ${actor}`);
    void done.then(
      (r) =>
        console.log(
          r.ok
            ? `[meshfront] publish ${r.buildId} finished in ${Math.round(r.durationMs / 1000)} s`
            : `[meshfront] publish failed: ${r.error}`,
        ),
      (err) => console.error('[meshfront] publish crashed:', err),
    );
    return { ok: true };
  } catch (err) {
    if (err instanceof PublishBusyError) return { ok: false, error: err.message };
    throw err;
  }
}

export type { PublishStatus };
