/**
 * What every English guide must have, shared by the guide content checks (tests/content/guides.test.ts)
 * and the guide template's test (tests/unit/content-new.test.ts), so the two cannot disagree.
 */
export const FRONTMATTER_FIELDS = [
  'title',
  'model',
  'vendor',
  'description',
  'order',
  'updated',
  'difficulty',
  'time',
  'flashMethod',
  'relatedArticles',
] as const;

/** Top-level pages guides may link to. */
export const ALLOWED_PAGES = ['/support', '/contact', '/downloads', '/meshfront-os', '/products'];

/** The H2 sections of a guide, in this order. */
export const REQUIRED_H2 = [
  'What you need',
  'Before you start',
  'Step 1: Flash Meshfront OS',
  'Step 2: Connect the antenna',
  'Step 3: Power and network',
  'Step 4: Find the device on your network',
  'Step 5: Open the local setup page',
  'Step 6: Claim it with your Kadena wallet',
  'Check that it is online',
  'Troubleshooting',
  'Get help',
];
