/**
 * Content collections. Everything lives in the repository's top-level content/ folder (not
 * src/content) so editors commit MDX/YAML without touching code. See src/lib/content/schemas.ts
 * for the frontmatter and src/lib/content/translations.ts for how locale suffixes become ids.
 *
 *   supportIndex       content/support/_index[.<locale>].mdx                 id '_index', '_index.de_DE'
 *   supportCategories  content/support/<category>/_category[.<locale>].yaml  id 'gateways', 'gateways.de_DE'
 *   support            content/support/<category>/<slug…>[.<locale>].mdx     id 'gateways/antennas/cable-loss[.de_DE]'
 *   guides             content/guides/<model>[.<locale>].mdx                 id 'nebra-indoor[.de_DE]'
 *   policies           content/policies/<slug…>[.<locale>].mdx               id 'privacy-policy[.fr_FR]'
 *   pages              content/pages/<slug>[.<locale>].mdx                   id 'about[.de_DE]'
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { companyPage, guide, policy, supportArticle, supportCategoryEntry, supportIndex } from './lib/content/schemas';
import { entryIdFromPath } from './lib/content/translations';

const generateId = ({ entry }: { entry: string }) => entryIdFromPath(entry);

const supportIndexCollection = defineCollection({
  loader: glob({ base: './content/support', pattern: '_index*.mdx', generateId }),
  schema: supportIndex,
});

const supportCategories = defineCollection({
  loader: glob({ base: './content/support', pattern: '*/_category*.{yaml,yml,json}', generateId }),
  schema: supportCategoryEntry,
});

const support = defineCollection({
  // '*/' first: articles always sit in a category folder, so the top-level _index files are not articles.
  loader: glob({ base: './content/support', pattern: ['*/**/*.{md,mdx}', '!**/_*'], generateId }),
  schema: supportArticle,
});

const guides = defineCollection({
  loader: glob({ base: './content/guides', pattern: '*.{md,mdx}', generateId }),
  schema: guide,
});

const policies = defineCollection({
  loader: glob({ base: './content/policies', pattern: '**/*.{md,mdx}', generateId }),
  schema: policy,
});

const pages = defineCollection({
  loader: glob({ base: './content/pages', pattern: '*.{md,mdx}', generateId }),
  schema: companyPage,
});

export const collections = {
  supportIndex: supportIndexCollection,
  supportCategories,
  support,
  guides,
  policies,
  pages,
};
