/**
 * Frontmatter schemas for everything editors commit under content/ (support, guides, policies,
 * company pages). One definition serves Astro's content collections (src/content.config.ts) and the
 * content tests (tests/content/support.test.ts), so a bad frontmatter fails both the same way.
 *
 * Dates: YAML turns `updated: 2026-11-20` into a Date and a quoted string stays a string;
 * z.coerce.date() accepts both, so editors need not care.
 */
import { z } from 'astro/zod';

/** Kebab-case slug segment: lowercase letters, digits and single hyphens. */
const slugSegment = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A lucide icon name as used by @iconify-json/lucide, e.g. "rocket", "wallet-cards". */
const lucideIconName = z.string().regex(slugSegment, 'use a lucide icon name such as "rocket"');

export const GUIDE_DIFFICULTIES = ['easy', 'moderate', 'advanced'] as const;
export const FLASH_METHODS = ['sd-card', 'usb-boot', 'emmc', 'network'] as const;

/**
 * A support category: content/support/<category>/_category.yaml (English, complete) and
 * _category.<locale>.yaml (translation: title and description; icon and order are taken from
 * the English file when left out).
 */
export const supportCategory = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  icon: lucideIconName,
  order: z.number().int().nonnegative(),
});
export const supportCategoryTranslation = supportCategory.partial({ icon: true, order: true });
/**
 * What the collection accepts (English or translation); the content test insists English is complete.
 * @alias of supportCategoryTranslation, named for the collection
 */
export const supportCategoryEntry = supportCategoryTranslation;

/** The support home intro: content/support/_index[.<locale>].mdx. */
export const supportIndex = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(160),
  searchPlaceholder: z.string().min(1).optional(),
});

/** A support article: content/support/<category>/<slug…>.mdx. */
export const supportArticle = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(160),
  /** Must equal the first folder of the article's path (checked by the content test). */
  category: z.string().regex(slugSegment),
  order: z.number().int().nonnegative(),
  updated: z.coerce.date(),
  /** Slugs of files in content/guides (without .mdx). */
  relatedGuides: z.array(z.string().regex(slugSegment)).default([]),
  popular: z.boolean().optional(),
  tags: z.array(z.string().min(1)).optional(),
});

/** A gateway onboarding guide: content/guides/<model>.mdx. */
export const guide = z.object({
  title: z.string().min(1),
  model: z.string().min(1),
  vendor: z.string().min(1),
  description: z.string().min(1).max(160),
  order: z.number().int().nonnegative(),
  updated: z.coerce.date(),
  difficulty: z.enum(GUIDE_DIFFICULTIES),
  time: z.string().min(1),
  flashMethod: z.enum(FLASH_METHODS),
  /** Support article ids "<category>/<slug…>". */
  relatedArticles: z.array(z.string().regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)+$/)).default([]),
});

/** A policy: content/policies/<slug…>.mdx. */
export const policy = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  updated: z.coerce.date(),
  order: z.number().int().nonnegative(),
});

/** A company page: content/pages/<slug>.mdx, served at /<slug>. */
export const companyPage = z.object({
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  updated: z.coerce.date().optional(),
  order: z.number().int().nonnegative().optional(),
});

export type SupportCategoryEntry = z.infer<typeof supportCategoryEntry>;
export type SupportArticle = z.infer<typeof supportArticle>;
