import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { CatalogImage } from '../../lib/catalog/types.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { getImage, getSizes, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper.ts';
import { $chosenVariation, $variationImage } from './selection.ts';

export interface GalleryProps {
  /** Main image first, then galleryImages. */
  images: CatalogImage[];
  productName: string;
  strings: Strings;
  /**
   * The default variation's image: shown in the main spot by the static page, before the picker has
   * hydrated (from then on the picker's choice decides).
   */
  initialImage?: CatalogImage | null;
}

const MAIN_SIZES = 'sm:100vw md:100vw lg:50vw xl:600px';
const SWIPE_DISTANCE = 40;

/**
 * Product images: one large image, previous/next buttons, thumbnails. Arrow keys move through the
 * images (on the image and on the thumbnails), Home/End jump to the ends, a horizontal swipe on
 * touch screens does the same. The chosen variation's image takes the main spot when it has one.
 */
export default function Gallery({ images: given, productName, strings, initialImage = null }: GalleryProps) {
  const t = createLookup(strings);
  const chosen = useStore($chosenVariation);
  const chosenImage = useStore($variationImage);
  // The first render matches the static HTML (initialImage), even when the picker island hydrated
  // first and already published another choice; from then on the picker's choice decides.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const variationImage = mounted && chosen !== null ? chosenImage : initialImage;
  const images = useMemo(() => {
    const list = given.filter((image) => image.sourceUrl);
    if (variationImage?.sourceUrl && !list.some((image) => image.sourceUrl === variationImage.sourceUrl))
      return [variationImage, ...list];
    return list.length ? list : [{ sourceUrl: '', altText: productName }];
  }, [given, variationImage, productName]);
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      images.findIndex((image) => image.sourceUrl === variationImage?.sourceUrl),
    ),
  );
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const swipeStart = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    if (!variationImage?.sourceUrl) return;
    const at = images.findIndex((image) => image.sourceUrl === variationImage.sourceUrl);
    if (at >= 0) setIndex(at);
  }, [variationImage, images]);

  const count = images.length;
  const current = Math.min(index, count - 1);
  const show = (next: number, focusThumb = false) => {
    const wrapped = (next + count) % count;
    setIndex(wrapped);
    if (focusThumb) thumbs.current[wrapped]?.focus();
  };
  const onKey = (focusThumb: boolean) => (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (!(event.key in moves) || count < 2) return;
    event.preventDefault();
    show(moves[event.key], focusThumb);
  };
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') swipeStart.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start || count < 2) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) > SWIPE_DISTANCE && Math.abs(dx) > Math.abs(event.clientY - start.y))
      show(current + (dx < 0 ? 1 : -1));
  };

  const image = images[current];
  const source = localiseImageUrl(image.sourceUrl) || PLACEHOLDER_IMAGE;
  const main = getSizes(source, { preset: 'gallery', sizes: MAIN_SIZES });
  const alt = image.altText || productName;
  const arrow =
    'absolute top-1/2 -translate-y-1/2 inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/90 text-gray-900 shadow focus-visible:outline-2 focus-visible:outline-main dark:bg-gray-800/90 dark:text-gray-100';

  return (
    <section aria-roledescription="carousel" aria-label={t('product.gallery', { name: productName })}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: it has the group role, a name and a tab stop whenever there are images to move through; with one image its handlers do nothing */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is given only together with the group role */}
      <div
        className="relative aspect-square touch-pan-y overflow-hidden rounded-lg bg-gray-100 select-none dark:bg-gray-800"
        tabIndex={count > 1 ? 0 : undefined}
        onKeyDown={onKey(false)}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipeStart.current = null)}
        aria-label={count > 1 ? t('product.imageOf', { current: current + 1, total: count }) : undefined}
        role={count > 1 ? 'group' : undefined}
      >
        <img
          key={source}
          src={main.src}
          srcSet={main.srcset}
          sizes={main.sizes}
          alt={alt}
          width={960}
          height={960}
          fetchPriority={current === 0 ? 'high' : 'auto'}
          draggable={false}
          className="h-full w-full object-contain"
        />
        {count > 1 && (
          <>
            <button
              type="button"
              className={`${arrow} left-2`}
              onClick={() => show(current - 1)}
              aria-label={t('product.previousImage')}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className={`${arrow} right-2`}
              onClick={() => show(current + 1)}
              aria-label={t('product.nextImage')}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="mt-3 flex gap-2 overflow-x-auto pb-1" onKeyDown={onKey(true)}>
          {images.map((thumb, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a picture can be in a gallery twice; its place tells the two apart
            <li key={`${thumb.sourceUrl}-${i}`} className="shrink-0">
              <button
                ref={(el) => {
                  thumbs.current[i] = el;
                }}
                type="button"
                aria-current={i === current ? 'true' : undefined}
                aria-label={t('product.showImage', { current: i + 1, total: count })}
                tabIndex={i === current ? 0 : -1}
                onClick={() => show(i)}
                className={`block h-16 w-16 overflow-hidden rounded-md border-2 bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main dark:bg-gray-800 ${i === current ? 'border-main' : 'border-transparent'}`}
              >
                <img
                  src={getImage(localiseImageUrl(thumb.sourceUrl) || PLACEHOLDER_IMAGE, { preset: 'thumbnail' }).url}
                  alt=""
                  width={96}
                  height={96}
                  loading="lazy"
                  className="h-full w-full object-contain"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
