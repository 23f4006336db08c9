/**
 * Image dimensions for width/height attributes (no layout shift). A failed read is logged as
 * 'Failed to get image meta for {url}' and yields 0 sizes so a page still renders.
 */
export interface ImageMeta {
  width: number;
  height: number;
  ratio: number;
}

export type MetaReader = (url: string) => Promise<{ width?: number; height?: number }>;

export async function getImageMeta(url: string, read: MetaReader): Promise<ImageMeta> {
  try {
    const { width = 0, height = 0 } = await read(url);
    if (!(width > 0 && height > 0)) throw new Error('no dimensions');
    return { width, height, ratio: width / height };
  } catch (error) {
    console.error(`Failed to get image meta for ${url}`, String(error));
    return { width: 0, height: 0, ratio: 0 };
  }
}
