/**
 * A long download (the CSV exports, a calendar, a JSON file) written in large blocks. The adapter flushes the
 * compressor after every chunk it writes, so that streamed HTML reaches the browser at once; csv-stringify hands
 * over one chunk per row, and a 100,000-row export went out gzipped as 20 MB instead of 6 MB, at 5 s more CPU
 * (each flush ends a deflate block and starts matching afresh). Here chunks are joined until a block is full or the
 * source pauses (it waits for the database's next page), so each flush compresses a block of its own size. The
 * first chunk (the byte-order mark and the header row) goes out at once: the browser starts the download at once.
 */
// 64 KiB blocks with a 50 ms quiet time still came to 1.125× the whole file gzipped at 100,000 rows on a busy
// machine (a database page that took longer than 50 ms sent a small block); 256 KiB and 250 ms come to 1.04×
// (scripts/bench-export.ts).
export const BLOCK_BYTES = 256 * 1024;
/** A source quiet this long has its partial block sent: the client is never kept waiting on a full block. */
export const QUIET_MS = 250;

export function inLargeBlocks(): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let size = 0;
  let first = true;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const send = (controller: TransformStreamDefaultController<Uint8Array>) => {
    clearTimeout(quiet);
    quiet = undefined;
    if (!size) return;
    const block = new Uint8Array(size);
    let at = 0;
    for (const part of held) {
      block.set(part, at);
      at += part.length;
    }
    held = [];
    size = 0;
    controller.enqueue(block);
  };
  return new TransformStream({
    transform(chunk, controller) {
      held.push(chunk);
      size += chunk.length;
      if (first || size >= BLOCK_BYTES) {
        first = false;
        send(controller);
        return;
      }
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        try {
          send(controller);
        } catch {
          // The stream was closed or cancelled meanwhile: nothing left to send to.
        }
      }, QUIET_MS);
    },
    flush(controller) {
      send(controller);
    },
  });
}

/** Streamed HTML is flushed chunk by chunk (the page shell first); everything else goes in large blocks. */
export function blocksFor(contentType: string | null): boolean {
  return !/^text\/html\b/i.test(contentType ?? "");
}
