/**
 * The category form: name, slug, parent and description into adminCreateCategory / adminUpdateCategory
 * input. A parent must be another existing category and not one of the category's own sub-categories
 * (the engine checks too; this says so next to the field).
 */
import type { AdminCategoryFieldsFragment } from '../../../graphql/generated/admin-operations.ts';
import type { AdminCategoryInput } from '../../../graphql/generated/admin-schema.ts';
import type { FormFields } from './forms.ts';
import { CATEGORY_TRANSLATED_FIELDS, translationsInput, translationValues } from './translation-form.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Cat = Pick<AdminCategoryFieldsFragment, 'id' | 'parentId' | 'name' | 'slug' | 'description'> &
  Partial<Pick<AdminCategoryFieldsFragment, 'translations'>>;

export function categoryInput(f: FormFields, all: readonly Cat[], self: Cat | null): AdminCategoryInput | null {
  const name = f.text('name', 'Name', { required: true, max: 200 });
  const slug = f.text('slug', 'Slug', { max: 200 })?.toLowerCase();
  if (slug && !SLUG.test(slug))
    f.errors.slug ??=
      'The slug may contain lower-case letters, digits and single hyphens only (leave it empty to make one from the name).';
  if (self && !slug) f.errors.slug ??= 'Slug is required.';
  if (slug && all.some((c) => c.slug === slug && c.id !== self?.id))
    f.errors.slug ??= `Another category already has the slug "${slug}".`;
  const description = f.text('description', 'Description', { max: 10_000 });
  const parentRaw = f.raw('parentId');
  let parentId: number | null = null;
  if (parentRaw) {
    const parent = all.find((c) => String(c.id) === parentRaw);
    if (!parent) f.errors.parentId ??= 'Choose a parent from the list.';
    else if (self && (parent.id === self.id || isBelow(all, parent.id, self.id)))
      f.errors.parentId ??= 'A category cannot be placed under itself or one of its own sub-categories.';
    else parentId = parent.id;
  }
  const translations = translationsInput(f, CATEGORY_TRANSLATED_FIELDS);
  if (!f.ok) return null;
  return { name, ...(slug ? { slug } : {}), description, parentId, translations };
}

/** Is `id` somewhere below `ancestor`? */
function isBelow(all: readonly Cat[], id: number, ancestor: number): boolean {
  let cursor = all.find((c) => c.id === id)?.parentId ?? null;
  for (let depth = 0; cursor !== null && depth < 50; depth++) {
    if (cursor === ancestor) return true;
    cursor = all.find((c) => c.id === cursor)?.parentId ?? null;
  }
  return false;
}

export type CategoryValues = {
  name: string;
  slug: string;
  description: string;
  parentId: string;
  /** tr-<locale>-<field> → text (translation-form.ts). */
  translations: Record<string, string>;
};

export function categoryValues(category: Cat | null, posted: URLSearchParams | null): CategoryValues {
  if (posted)
    return {
      name: posted.get('name') ?? '',
      slug: posted.get('slug') ?? '',
      description: posted.get('description') ?? '',
      parentId: posted.get('parentId') ?? '',
      translations: translationValues(null, posted, CATEGORY_TRANSLATED_FIELDS),
    };
  if (!category)
    return {
      name: '',
      slug: '',
      description: '',
      parentId: '',
      translations: translationValues(null, null, CATEGORY_TRANSLATED_FIELDS),
    };
  return {
    name: category.name,
    slug: category.slug,
    description: category.description,
    parentId: category.parentId === null ? '' : String(category.parentId),
    translations: translationValues(category.translations ?? [], null, CATEGORY_TRANSLATED_FIELDS),
  };
}
