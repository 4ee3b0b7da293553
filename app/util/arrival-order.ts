/** Oldest first, then by id: the order of arrival of records (enquiries, contact queries), as SQL sorts them. */
export function byArrival(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
