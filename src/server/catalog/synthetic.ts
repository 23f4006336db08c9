/**
 * A large, realistic-looking synthetic catalog for benchmarks (`npm run shop -- seed --synthetic 5000`),
 * generated from a fixed random seed so every run yields the same products.
 */
import type { SeedCatalog } from './seed-loader.ts';
import type { SeedProduct } from './seed-format.ts';

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORIES = [
  { slug: 'gateways', name: 'Gateways' },
  { slug: 'antennas', name: 'Antennas' },
  { slug: 'accessories', name: 'Accessories' },
  { slug: 'software', name: 'Software' },
  { slug: 'swag', name: 'Swag' },
];
const WORDS: Record<string, [string[], string[]]> = {
  gateways: [
    ['Outdoor', 'Indoor', 'Pocket', 'Rugged', 'Solar', 'Industrial'],
    ['LoRa Gateway', 'Hotspot', 'Concentrator', 'Miner Retrofit'],
  ],
  antennas: [
    ['Fiberglass', 'High-Gain', 'Omni', 'Yagi', 'Panel', 'Ground-Plane'],
    ['Antenna 3 dBi', 'Antenna 5.8 dBi', 'Antenna 8 dBi', 'Antenna Kit'],
  ],
  accessories: [
    ['N-Type', 'SMA', 'Low-Loss', 'Weatherproof', 'PoE', 'Mounting'],
    ['Cable', 'Adapter', 'Arrestor', 'Bracket', 'Injector', 'Enclosure'],
  ],
  software: [
    ['Meshfront OS', 'Fleet', 'Monitoring', 'Priority'],
    ['License', 'Image', 'Subscription', 'Support Plan'],
  ],
  swag: [
    ['Mesh', 'Signal', 'Node', 'Packet'],
    ['T-Shirt', 'Hoodie', 'Cap', 'Mug', 'Sticker Pack'],
  ],
};

export function syntheticCatalog(count: number, seed = 20261122): SeedCatalog {
  const rand = mulberry32(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const money = (min: number, max: number) => (Math.round((min + rand() * (max - min)) * 100) / 100).toFixed(2);
  const attributes = [
    {
      slug: 'pa_frequency-band',
      name: 'Frequency band',
      terms: [
        { slug: 'eu868', name: 'EU868' },
        { slug: 'us915', name: 'US915' },
        { slug: 'as923', name: 'AS923' },
      ],
    },
    { slug: 'pa_size', name: 'Size', terms: ['s', 'm', 'l', 'xl'].map((s) => ({ slug: s, name: s.toUpperCase() })) },
    {
      slug: 'pa_color',
      name: 'Color',
      terms: ['black', 'white', 'teal'].map((s) => ({ slug: s, name: s[0]!.toUpperCase() + s.slice(1) })),
    },
  ];
  const products: SeedProduct[] = [];
  for (let i = 1; i <= count; i++) {
    const cat = pick(CATEGORIES);
    const [adjectives, nouns] = WORDS[cat.slug]!;
    const name = `${pick(adjectives)} ${pick(nouns)} ${String(i).padStart(5, '0')}`;
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 700) * 86_400_000).toISOString().slice(0, 10);
    const regular = money(5, cat.slug === 'gateways' ? 600 : 120);
    const onSale = rand() < 0.2;
    const reviews = Array.from({ length: Math.floor(rand() * 4) }, (_, r) => ({
      author: `Reviewer ${i}-${r}`,
      email: `reviewer${i}.${r}@example.com`,
      rating: 1 + Math.floor(rand() * 5),
      content: 'Works as described; setup took a few minutes.',
      date: day,
      verified: rand() < 0.5,
    }));
    const base = {
      slug,
      name,
      sku: `SYN-${String(i).padStart(5, '0')}`,
      status: 'publish' as const,
      visibility: 'visible' as const,
      featured: rand() < 0.05,
      date: day,
      shortDescription: `<p>${name} for decentralised LoRa networks.</p>`,
      description: `<p>${name}: synthetic benchmark product in ${cat.name}.</p>`,
      categories: [cat.slug],
      tags: [],
      image: 'placeholder.svg',
      gallery: ['placeholder.svg'],
      related: [],
      totalSales: Math.floor(rand() * 500),
      reviews,
      reviewsAllowed: true,
      metaData: [],
      translations: {},
    };
    const variable = (cat.slug === 'gateways' || cat.slug === 'swag') && rand() < 0.5;
    if (variable) {
      const attr = cat.slug === 'gateways' ? attributes[0]! : attributes[1]!;
      products.push({
        ...base,
        type: 'variable',
        attributes: [
          { name: attr.slug, options: attr.terms.map((t) => t.slug), visible: true, variation: true, translations: {} },
        ],
        defaultAttributes: { [attr.slug]: attr.terms[0]!.slug },
        variations: attr.terms.map((t, v) => ({
          sku: `${base.sku}-${t.slug.toUpperCase()}`,
          attributes: { [attr.slug]: t.slug },
          regularPrice: regular,
          salePrice: onSale && v === 0 ? (Number(regular) * 0.8).toFixed(2) : undefined,
          stock: { manage: true, quantity: Math.floor(rand() * 40), backorders: 'no' as const },
        })),
      });
    } else {
      products.push({
        ...base,
        type: 'simple',
        attributes: [],
        regularPrice: regular,
        salePrice: onSale ? (Number(regular) * 0.85).toFixed(2) : undefined,
        stock: { manage: true, quantity: Math.floor(rand() * 60), backorders: rand() < 0.1 ? 'notify' : 'no' },
        virtual: cat.slug === 'software',
        downloadable: false,
        downloads: [],
      });
    }
  }
  return {
    dir: '',
    categories: CATEGORIES.map((c, i) => ({ ...c, description: '', order: i, translations: {} })),
    attributes: attributes.map((a) => ({
      ...a,
      translations: {},
      terms: a.terms.map((t) => ({ ...t, translations: {} })),
    })),
    coupons: [],
    products,
  };
}
