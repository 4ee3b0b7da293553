import { Link } from "react-router";

export const ROW_LINK = "inline-flex items-center rounded-md px-2.5 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50";

/** A row's Edit / View link to a child dialog route; the accessible name says which row. */
export function EditLink({ to, itemName, children = "Edit" }: { to: string; itemName: string; children?: string }) {
  return (
    <Link to={to} className={ROW_LINK} aria-label={`${children} ${itemName}`} preventScrollReset>
      {children}
    </Link>
  );
}
