/**
 * What the product screen's forms do. Each form names its `intent`; this runs it through the admin
 * endpoint and answers the `done` code for the redirect, or null when a field was refused (f.errors).
 * Refusals of the endpoint itself (a taken SKU, a file it cannot store…) are thrown as AdminCallError.
 *
 * URL-encoded forms: save (price and stock), details, variation (edit), add-variation, delete-variation,
 * archive, restore, remove-image, remove-download. Multipart forms (with a file): upload-image, add-download.
 */
import type { AdminProductFieldsFragment } from '../../../graphql/generated/admin-operations.ts';
import type { AdminCaller } from './client.ts';
import type { FormFields } from './forms.ts';
import { productDetailsInput } from './catalog-form.ts';
import { productPriceStockInput } from './product-form.ts';
import { imageProblem, type UploadedFile } from './upload-form.ts';
import { variationInput } from './variation-form.ts';
import type { DONE_MESSAGES } from './page.ts';

type Done = keyof typeof DONE_MESSAGES;

export const PRODUCT_FORM_INTENTS = [
  'save',
  'details',
  'variation',
  'add-variation',
  'delete-variation',
  'archive',
  'restore',
  'remove-image',
  'remove-download',
] as const;
export const PRODUCT_UPLOAD_INTENTS = ['upload-image', 'add-download'] as const;

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** The form a refusal belongs to, so the page shows its errors and posted values there (variation forms by id). */
export function formKey(intent: string, f: FormFields): string {
  if (intent === 'variation' || intent === 'delete-variation') return `${intent}:${f.raw('variationId')}`;
  return intent;
}

export async function runProductAction(
  call: AdminCaller,
  product: AdminProductFieldsFragment,
  intent: string,
  f: FormFields,
  ctx: { categories: readonly { id: number }[]; file?: UploadedFile | null },
): Promise<Done | null> {
  const id = product.id;
  const variation = () => {
    const variationId = Number(f.raw('variationId')) || 0;
    return product.variations.find((v) => v.id === variationId) ?? null;
  };
  switch (intent) {
    case 'save': {
      const input = productPriceStockInput(f, product.type);
      if (!input) return null;
      await call('adminUpdateProduct', { id, input });
      return 'saved';
    }
    case 'details': {
      const input = productDetailsInput(f, product, ctx.categories);
      if (!input) return null;
      await call('adminUpdateProduct', { id, input });
      return 'saved';
    }
    case 'variation': {
      const v = variation();
      if (!v) return unknownVariation(f);
      const input = variationInput(f, product, v);
      if (!input) return null;
      await call('adminUpdateVariation', { id: v.id, input });
      return 'saved';
    }
    case 'add-variation': {
      if (product.type !== 'VARIABLE') return refuse(f, 'intent', 'Only variable products have variations.');
      const input = variationInput(f, product, null);
      if (!input) return null;
      await call('adminCreateVariation', { productId: id, input });
      return 'variation-added';
    }
    case 'delete-variation': {
      const v = variation();
      if (!v) return unknownVariation(f);
      if (!f.confirmed('confirm', 'Tick the box to confirm the deletion.')) return null;
      await call('adminDeleteVariation', { id: v.id });
      return 'variation-deleted';
    }
    case 'archive': {
      if (!f.confirmed('confirm', 'Tick the box to confirm the archive.')) return null;
      await call('adminArchiveProduct', { id });
      return 'archived';
    }
    case 'restore': {
      await call('adminUpdateProduct', { id, input: { status: 'PUBLISH' } });
      return product.status === 'DRAFT' ? 'published' : 'restored';
    }
    case 'upload-image': {
      const problem = f.errors.file ?? imageProblem(ctx.file ?? null);
      const altText = f.text('altText', 'Alt text', { max: 300 });
      const role = f.choice('role', 'Use', ['MAIN', 'GALLERY'] as const, { required: true });
      if (problem) f.errors.file = problem;
      if (!f.ok) return null;
      const { adminUploadImage: image } = await call('adminUploadImage', {
        input: { fileName: ctx.file!.name, contentBase64: ctx.file!.bytes.toString('base64'), altText },
      });
      const galleryImageIds = product.gallery.map((g) => g.id);
      // The first image of a product is its main image whatever was chosen: the shop shows the main one.
      const input =
        role === 'MAIN' || !product.image ? { imageId: image.id } : { galleryImageIds: [...galleryImageIds, image.id] };
      await call('adminUpdateProduct', { id, input });
      return 'image-added';
    }
    case 'remove-image': {
      const imageId = Number(f.raw('imageId')) || 0;
      if (product.image?.id === imageId) await call('adminUpdateProduct', { id, input: { imageId: null } });
      else if (product.gallery.some((g) => g.id === imageId))
        await call('adminUpdateProduct', {
          id,
          input: { galleryImageIds: product.gallery.map((g) => g.id).filter((g) => g !== imageId) },
        });
      else return refuse(f, 'imageId', 'This image is no longer on the product; reload the page.');
      return 'image-removed';
    }
    case 'add-download': {
      if (product.type !== 'SIMPLE') return refuse(f, 'name', 'Only simple products can have downloadable files.');
      const name = f.text('name', 'File name shown to customers', { required: true, max: 200 });
      const existing = f.raw('existingFile');
      if (f.errors.file) {
        // too large: already said
      } else if (ctx.file && existing) f.errors.file = 'Upload a file or name one already on the server, not both.';
      else if (!ctx.file && !existing)
        f.errors.file = 'Choose a file to upload (or name a file already in the downloads directory).';
      else if (existing && !FILE_NAME.test(existing))
        f.errors.existingFile = 'A file name has letters, digits, dots, hyphens and underscores only (no folders).';
      if (!f.ok || !name) return null;
      const input = ctx.file
        ? { productId: id, name, fileName: ctx.file.name, contentBase64: ctx.file.bytes.toString('base64') }
        : { productId: id, name, fileName: existing };
      await call('adminAddProductDownload', { input });
      return 'download-added';
    }
    case 'remove-download': {
      const downloadId = f.raw('downloadId');
      if (!product.downloads.some((d) => d.id === downloadId))
        return refuse(f, 'downloadId', 'This file is no longer on the product; reload the page.');
      await call('adminRemoveProductDownload', { downloadId });
      return 'download-removed';
    }
    default:
      return refuse(f, 'intent', 'Unknown action.');
  }
}

function refuse(f: FormFields, field: string, message: string): null {
  f.errors[field] ??= message;
  return null;
}

function unknownVariation(f: FormFields): null {
  return refuse(f, 'variationId', 'This variation no longer exists; reload the page.');
}
