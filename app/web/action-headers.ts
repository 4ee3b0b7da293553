import type { HeadersArgs } from "react-router";

/**
 * React Router drops an action's headers on a full-page (JavaScript off) answer unless the route passes
 * them on. Forms that can be throttled use this so their 429 carries Retry-After.
 */
export function passActionHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

/** Passes a loader's headers on to the page, so a page answering 503 carries its Retry-After. */
export function passLoaderHeaders({ loaderHeaders }: HeadersArgs): Headers {
  return loaderHeaders;
}
