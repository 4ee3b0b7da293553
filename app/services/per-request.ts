/**
 * A figure worked out once per request however many loaders of that request ask for it (the admin layout's
 * sidebar and the dashboard both show the New count and "my overdue"): the first caller's promise is shared.
 * `scope` is the request's load context (one object per request); without one, the work simply runs.
 */
const figures = new WeakMap<object, Map<string, Promise<unknown>>>();

export function oncePerRequest<T>(scope: object | undefined, key: string, work: () => Promise<T>): Promise<T> {
  if (!scope) return work();
  let known = figures.get(scope);
  if (!known) figures.set(scope, (known = new Map()));
  let promise = known.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = work();
    known.set(key, promise);
    // A failure is not kept: another caller of the same request may try again.
    promise.catch(() => known.delete(key));
  }
  return promise;
}
