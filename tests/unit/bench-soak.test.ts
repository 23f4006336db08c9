import { describe, expect, it } from 'vitest';
import { parseDuration, memoryVerdict } from '../../bench/soak.mjs';

describe('npm run bench -- --soak <duration>', () => {
  it('reads seconds, minutes and hours, and bare numbers as seconds', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('1.5m')).toBe(90_000);
  });

  it('refuses what is not a duration, too short to warm up, or absurdly long', () => {
    expect(() => parseDuration(undefined)).toThrow('--soak takes a duration such as 30s, 10m or 1h, not "undefined"');
    expect(() => parseDuration('ten minutes')).toThrow('--soak takes a duration');
    expect(() => parseDuration('-5m')).toThrow('--soak takes a duration');
    expect(() => parseDuration('5s')).toThrow('at least 10s');
    expect(() => parseDuration('25h')).toThrow('limited to 24h');
  });
});

describe('soak memory verdict', () => {
  const run = (rss: number[], everyS = 5) =>
    rss.map((rssMB, i) => ({ atS: (i + 1) * everyS, rssMB, requests: i * 100 }));

  it('calls memory flat when it settles after warm-up, ignoring the warm-up climb', () => {
    // 10 minutes: climbs from 300 to 600 MB in the first two minutes, then wobbles around 620.
    const samples = run([
      ...Array.from({ length: 24 }, (_, i) => 300 + i * 12),
      ...Array.from({ length: 96 }, (_, i) => 615 + (i % 3) * 5),
    ]);
    const v = memoryVerdict(samples, 600_000);
    expect(v.ok).toBe(true);
    expect(v.baselineMB).toBeGreaterThan(600);
    expect(Math.abs(v.growth)).toBeLessThan(0.02);
  });

  it('flags steady growth after warm-up as a leak', () => {
    const samples = run(Array.from({ length: 120 }, (_, i) => 400 + i * 3));
    const v = memoryVerdict(samples, 600_000);
    expect(v.ok).toBe(false);
    expect(v.finalMB).toBeGreaterThan(v.baselineMB * 1.1);
  });

  it('does not pass a run without enough samples after warm-up', () => {
    expect(memoryVerdict(run([500]), 12_000)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('too few memory samples'),
    });
  });
});
