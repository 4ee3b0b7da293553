import sharp from "sharp";
import type { UploadKind } from "~/schemas/uploads";

/** Course images come from staff; attachments from anyone, so the anonymous path gets half the pixels. */
export const IMAGE_MAX_PIXELS = 50_000_000;
export const ATTACHMENT_MAX_PIXELS = 25_000_000;
/** libvips' own limit on one image's work, inside the runner's deadline. */
const SHARP_SECONDS = 15;

/**
 * One libvips thread per image (its default is one per core): with two file checks at a time, image work takes at
 * most two threads. Measured with scripts/bench-upload-flood.ts (40 posts of three 24-megapixel photos, 2 cores):
 * as many posts finished, and the home page's slowest answers during the flood came in 150-170 ms instead of
 * 310-780 ms.
 */
sharp.concurrency(1);

/**
 * Course images: resized and re-encoded to WebP. Attachment photos: re-encoded in their own format at their
 * own size. Either way only pixels survive: metadata (location, camera) and anything appended after the image
 * data (an HTML or script polyglot) are dropped. limitInputPixels refuses decompression bombs (and, for
 * attachments, any photo large enough to keep a core busy for seconds) from the header, before decoding.
 * Runs in the file-check process (index.server.ts).
 */
export async function reencodeImageFile(source: string, target: string, kind: UploadKind, ext: string): Promise<number> {
  const image = sharp(source, { animated: kind === "image", limitInputPixels: kind === "attachment" ? ATTACHMENT_MAX_PIXELS : IMAGE_MAX_PIXELS })
    .rotate()
    .timeout({ seconds: SHARP_SECONDS });
  if (kind === "image") {
    const info = await image.resize({ width: 1600, height: 1600, fit: "inside", withoutEnlargement: true }).webp({ quality: 80 }).toFile(target);
    return info.size;
  }
  const info = await (ext === "png" ? image.png() : image.jpeg({ quality: 90, mozjpeg: true })).toFile(target);
  return info.size;
}
