/** The label/value pairs of a details dialog. */
export function DetailList({ items }: { items: { label: string; value: React.ReactNode; wide?: boolean }[] }) {
  return (
    // grid-cols-1 (minmax(0, 1fr)): a long e-mail wraps in its cell instead of widening the dialog past a phone's width.
    <dl className="grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.label} className={item.wide ? "min-w-0 sm:col-span-2" : "min-w-0"}>
          <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{item.label}</dt>
          <dd className="mt-1 text-sm break-words text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
