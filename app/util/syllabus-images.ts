/** Uploaded images a syllabus refers to (/media/images/<32 hex>.webp), so they can be removed with it. */
export function mediaImagesIn(markdown: string | null | undefined): string[] {
  if (!markdown) return [];
  return [...new Set(markdown.match(/\/media\/images\/[a-f0-9]{32}\.webp/g) ?? [])];
}
