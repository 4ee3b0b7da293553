import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { SITE } from "~/config/site";
import { useFlashShownInDialog } from "./dialog-flash";
import { ErrorBanner, NoticeBanner } from "./error-banner";

export type ShellUser = { id: string; name: string; email: string; role: "admin" | "editor" };
export type ShellFlash = { kind: "error" | "notice"; message: string; at?: string } | null;
export type ShellCounts = { newEnquiries: number; myQueue: number; pendingReviews: number; newContactQueries: number } | null;

type NavItem = { to: string; label: string; adminOnly: boolean; count?: (c: NonNullable<ShellCounts>) => { n: number; what: string } };

const NAV: NavItem[] = [
  { to: "/admin/dashboard", label: "Dashboard", adminOnly: false },
  { to: "/admin/courses", label: "Courses", adminOnly: false },
  { to: "/admin/schedules", label: "Schedules", adminOnly: false },
  { to: "/admin/reviews", label: "Reviews", adminOnly: false, count: (c) => ({ n: c.pendingReviews, what: "pending" }) },
  { to: "/admin/enquiries", label: "Enquiries", adminOnly: false, count: (c) => ({ n: c.newEnquiries, what: "new" }) },
  { to: "/admin/enquiries?view=queue", label: "My queue", adminOnly: false, count: (c) => ({ n: c.myQueue, what: "in your queue" }) },
  { to: "/admin/contact-queries", label: "Contact Queries", adminOnly: false, count: (c) => ({ n: c.newContactQueries, what: "new" }) },
  { to: "/admin/fees", label: "Fees", adminOnly: false },
  { to: "/admin/privacy", label: "Privacy", adminOnly: false },
  { to: "/admin/users", label: "Users", adminOnly: true },
  { to: "/admin/audit-log", label: "Audit Log", adminOnly: true },
  { to: "/admin/outbox", label: "Outbox", adminOnly: true },
  { to: "/admin/settings", label: "Settings", adminOnly: true },
];

/** Enquiries and My queue share a path: the queue is the one whose ?view=queue is in the address. */
function isCurrent(item: NavItem, pathname: string, search: string): boolean {
  const [path, query] = item.to.split("?");
  if (!(pathname === path || pathname.startsWith(`${path}/`))) return false;
  const queue = new URLSearchParams(search).get("view") === "queue";
  return path === "/admin/enquiries" ? (query ? queue : !queue) : true;
}

/**
 * The back-office frame: sidebar (a CSS checkbox toggle below 768 px, so it works without JavaScript),
 * the user's name and role, the navigation (Users, Audit Log, Outbox and Settings for admins only), logout, and the banner area.
 */
export function AdminShell({ user, flash, counts = null, children }: { user: ShellUser; flash: ShellFlash; counts?: ShellCounts; children: React.ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const menuToggle = useRef<HTMLInputElement>(null);
  const flashInDialog = useFlashShownInDialog();

  // The narrow-screen menu is a CSS checkbox toggle (works without JavaScript); close it after navigating.
  useEffect(() => {
    if (menuToggle.current) menuToggle.current.checked = false;
  }, [location.pathname]);

  return (
    <div data-admin-shell className="min-h-screen bg-slate-100 md:flex">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="relative bg-brand-900 text-white md:sticky md:top-0 md:flex md:h-screen md:w-48 md:shrink-0 md:flex-col 2xl:w-64">
        <div className="flex h-14 items-center px-4 md:h-16">
          <Link to="/admin/courses" className="text-lg font-bold tracking-tight">
            {SITE.shortName} <span className="font-normal text-brand-100">Admin</span>
          </Link>
        </div>
        <input ref={menuToggle} type="checkbox" id="admin-menu-toggle" className="peer sr-only" aria-label="Menu" aria-controls="admin-sidebar-content" />
        <label
          htmlFor="admin-menu-toggle"
          className="absolute top-2.5 right-3 inline-flex cursor-pointer items-center gap-2 rounded-md border border-white/30 px-3 py-1.5 text-sm font-semibold peer-focus-visible:outline-3 peer-focus-visible:outline-accent-500 md:hidden"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            <path d="M2 4h16v2H2V4Zm0 5h16v2H2V9Zm0 5h16v2H2v-2Z" />
          </svg>
          Menu
        </label>
        <div id="admin-sidebar-content" className="hidden border-t border-white/10 peer-checked:block md:flex md:flex-1 md:flex-col md:overflow-y-auto">
          <div className="px-4 py-4">
            <p className="font-semibold" data-testid="admin-user-name">
              {user.name}
            </p>
            <p className="text-sm text-brand-100" data-testid="admin-user-role">
              {user.role === "admin" ? "Admin" : "Editor"}
            </p>
            <Link to="/admin/users/me/password" className="mt-1 inline-block text-sm text-white underline underline-offset-2 hover:text-brand-100">
              Change my password
            </Link>
            <Link to="/admin/users/me/digest" className="mt-1 block text-sm text-white underline underline-offset-2 hover:text-brand-100">
              Daily digest e-mail
            </Link>
          </div>
          <nav aria-label="Admin" className="px-2 md:flex-1">
            <ul className="space-y-1">
              {NAV.filter((item) => !item.adminOnly || user.role === "admin").map((item) => {
                const active = isCurrent(item, location.pathname, location.search);
                const count = counts && item.count ? item.count(counts) : null;
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      aria-current={active ? "page" : undefined}
                      className={`flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm font-semibold ${active ? "bg-white text-brand-900" : "text-white hover:bg-white/10"}`}
                    >
                      {item.label}
                      {count && count.n > 0 ? (
                        <span className={`rounded-full px-2 text-xs ${active ? "bg-brand-100 text-brand-900" : "bg-accent-500 text-brand-900"}`}>
                          {count.n}
                          <span className="sr-only"> {count.what}</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <Form method="post" action="/admin/logout" className="px-4 py-4">
            <button type="submit" className="w-full rounded-md border border-white/40 px-3 py-2 text-sm font-semibold hover:bg-white/10">
              Logout
            </button>
          </Form>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        {navigation.state === "loading" ? <div aria-hidden="true" className="fixed inset-x-0 top-0 z-40 h-1 animate-pulse bg-accent-500" /> : null}
        <main id="admin-main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 md:px-4 md:py-8 2xl:px-8">
          <div aria-live="polite">
            {flash?.kind === "error" && !flashInDialog ? <ErrorBanner message={flash.message} className="mb-4" /> : null}
            {flash?.kind === "notice" && !flashInDialog ? <NoticeBanner message={flash.message} className="mb-4" /> : null}
          </div>
          {children}
        </main>
      </div>
    </div>
  );
}
