// When the process gives memory back (src/lib/http/memory-release.ts): only once it is quiet, only when
// its resident memory grew enough since the last release, and counted again from what is left after it.
import { describe, expect, it } from 'vitest';
import {
  MemoryRelease,
  readMemoryReleaseSettings,
  type MemoryReleaseProbe,
} from '../../src/lib/http/memory-release.ts';

const MB = 1024 * 1024;

/** A process whose resident size and busy share the test sets; a release brings it down to `afterRelease`. */
function fakeProcess(start: number) {
  const state = { resident: start, busy: 0, afterRelease: start, released: 0 };
  const probe: MemoryReleaseProbe = {
    residentBytes: () => state.resident,
    busyShare: () => state.busy,
    release: () => {
      state.released++;
      state.resident = state.afterRelease;
    },
  };
  return { state, probe };
}

const settings = { minGrowthBytes: 64 * MB, checkMs: 5000, idleUtilization: 0.05 };

describe('memory release', () => {
  it('releases once the process is quiet after starting, then only after it grew again', () => {
    const { state, probe } = fakeProcess(540 * MB);
    const release = new MemoryRelease(settings, probe);
    state.busy = 0.5; // still starting
    expect(release.check()).toBe(false);
    state.busy = 0.01;
    state.afterRelease = 280 * MB;
    expect(release.check()).toBe(true);
    expect(state.resident).toBe(280 * MB);
    expect(release.check()).toBe(false);
    expect(state.released).toBe(1);
  });

  it('releases once the process is quiet after growing, never while it is busy', () => {
    const { state, probe } = fakeProcess(250 * MB);
    const logged: string[] = [];
    const release = new MemoryRelease(settings, probe, (m) => logged.push(m));
    release.check(); // the release after the start
    state.resident = 560 * MB;
    state.busy = 0.9;
    expect(release.check()).toBe(false);
    state.busy = 0.2;
    expect(release.check()).toBe(false);
    expect(state.released).toBe(1);
    state.busy = 0.01;
    state.afterRelease = 240 * MB;
    expect(release.check()).toBe(true);
    expect(state.released).toBe(2);
    expect(logged[1]).toMatch(/^released memory after a busy spell: resident 560 → 240 MB \(\d+ ms\)$/);
    // Quiet and nothing new: no further release.
    expect(release.check()).toBe(false);
    expect(state.released).toBe(2);
  });

  it('counts growth from what is left after a release, and from the lowest size seen', () => {
    const { state, probe } = fakeProcess(300 * MB);
    const release = new MemoryRelease(settings, probe);
    release.check(); // the release after the start leaves it where it is
    state.resident = 280 * MB; // shrank by itself
    expect(release.check()).toBe(false);
    state.resident = 340 * MB; // 60 MB above the lowest point: not yet worth it
    expect(release.check()).toBe(false);
    state.resident = 350 * MB;
    state.afterRelease = 290 * MB;
    expect(release.check()).toBe(true);
    state.resident = 350 * MB; // 60 MB above what the release left
    expect(release.check()).toBe(false);
    expect(state.released).toBe(2);
  });

  it('never releases with MEMORY_RELEASE_MB=0; settings are checked', () => {
    const off = readMemoryReleaseSettings({ MEMORY_RELEASE_MB: '0' });
    expect(off.minGrowthBytes).toBe(0);
    const { state, probe } = fakeProcess(100 * MB);
    const release = new MemoryRelease(off, probe);
    state.resident = 900 * MB;
    expect(release.check()).toBe(false);
    expect(readMemoryReleaseSettings({})).toEqual({ minGrowthBytes: 64 * MB, checkMs: 5000, idleUtilization: 0.05 });
    expect(() => readMemoryReleaseSettings({ MEMORY_RELEASE_MB: 'lots' })).toThrow(
      'MEMORY_RELEASE_MB must be a number from 0 to 1000000, got "lots".',
    );
  });
});
