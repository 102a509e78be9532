import { type FixtureService, SERVICES } from "../test/fixtures/directories";

/**
 * `count` distinct services made from the fixture set's realistic ones: each copy gets its own
 * id, slug, name and domain, and its volume varies, so every page differs from every other.
 */
export function syntheticServices(count: number): FixtureService[] {
  return Array.from({ length: count }, (_, i) => {
    const template = SERVICES[i % SERVICES.length]!;
    const n = i + 1;
    return {
      ...template,
      id: 100_000 + n,
      slug: `${template.slug}-${n}`,
      name: `${template.name} ${n}`,
      domain: `s${n}.${template.domain}`,
      stats: {
        ...template.stats,
        volume30d: { shown: `$${n},${String(n % 1000).padStart(3, "0")}.50`, expected: null },
      },
    };
  });
}
