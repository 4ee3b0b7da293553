import { COURSE_CATEGORY_LABELS } from "~/schemas/values";
import { Link, Outlet, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import { requireStaff } from "~/web/actor.server";
import type { Route } from "./+types/admin.courses";
import { LinkButton } from "~/components/admin/buttons";
import { DeleteButton } from "~/components/admin/confirm-delete";
import { DataList } from "~/components/admin/data-list";
import { ErrorBanner } from "~/components/admin/error-banner";
import { PageHeader } from "~/components/admin/page-header";
import { Pagination } from "~/components/admin/pagination";
import { StatusBadge } from "~/components/admin/status-badge";
import { COURSE_CATEGORY_TONE } from "~/components/ui/badge-tones";
import { loadPage } from "~/web/list-page.server";
import { listHref, readListQuery } from "~/web/list-query";
import { listCourses } from "~/models/course.server";
import { COURSE_LOAD_FAILED } from "~/schemas/course";
import { readStateFilter } from "~/schemas/publication";
import { PublicationBadge, PublicationTabs } from "~/components/admin/publication-fields";

export const meta: Route.MetaFunction = () => [{ title: "Manage Courses · Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context });
  const url = new URL(request.url);
  const { page } = readListQuery(url, []);
  const { list, error } = await loadPage(url, () => listCourses({ page, state: readStateFilter(url) }), COURSE_LOAD_FAILED, "courses");
  return {
    error,
    list: {
      ...list,
      data: list.data.map((c) => ({
        id: c.id,
        title: c.title,
        category: c.category,
        duration: c.duration,
        featured: c.featured,
        image: c.image,
        state: c.state,
        publishAt: c.publishAt,
      })),
    },
  };
}

// Coming back from a dialog (the upload-progress save navigates here itself) shows the list as saved.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

export default function ManageCourses({ loaderData }: Route.ComponentProps) {
  const { list, error } = loaderData;
  const { search } = useLocation();
  const q = listHref("", search).replace(/^\?/, "");
  const withSearch = (path: string) => (q ? `${path}?${q}` : path);
  return (
    <>
      <PageHeader
        title="Manage Courses"
        description="The course catalogue shown on the public site."
        actions={
          <LinkButton to={withSearch("/admin/courses/new")} preventScrollReset>
            Add Course
          </LinkButton>
        }
      />
      <ErrorBanner message={error} className="mb-4" />
      {/* Add, edit and delete open here: a dialog with JavaScript, the top of the page without. */}
      <Outlet />
      <PublicationTabs basePath="/admin/courses" />
      <DataList
        items={list.data}
        rowKey={(c) => c.id}
        caption="Courses"
        empty="No courses found"
        columns={[
          {
            header: "Course",
            hideLabelOnCards: true,
            cell: (c) => (
              <div className="flex items-center gap-3">
                {c.image ? (
                  <img src={c.image} alt="" width={56} height={40} loading="lazy" className="h-10 w-14 shrink-0 rounded object-cover" />
                ) : (
                  <span aria-hidden="true" className="flex h-10 w-14 shrink-0 items-center justify-center rounded bg-brand-50 text-xs font-bold text-brand-700">
                    {c.title.slice(0, 2).toUpperCase()}
                  </span>
                )}
                <span className="font-semibold text-slate-900">{c.title}</span>
              </div>
            ),
          },
          { header: "Category", cell: (c) => <StatusBadge tone={COURSE_CATEGORY_TONE[c.category]}>{COURSE_CATEGORY_LABELS[c.category]}</StatusBadge> },
          { header: "Duration", cell: (c) => c.duration || <span className="text-slate-500">—</span>, className: "whitespace-nowrap" },
          {
            header: "Featured",
            cell: (c) =>
              c.featured ? (
                <span className="text-lg text-amber-600" role="img" aria-label="Featured">
                  ★
                </span>
              ) : (
                <span className="text-slate-500" role="img" aria-label="Not featured">
                  –
                </span>
              ),
          },
          { header: "Publication", cell: (c) => <PublicationBadge state={c.state} publishAt={c.publishAt} /> },
          {
            header: "Actions",
            cell: (c) => (
              <div className="flex flex-wrap gap-1">
                <Link
                  to={withSearch(`/admin/courses/${c.id}/edit`)}
                  preventScrollReset
                  className="rounded-md px-2.5 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Edit<span className="sr-only"> {c.title}</span>
                </Link>
                <DeleteButton
                  to={withSearch(`/admin/courses/${c.id}/delete`)}
                  itemName={c.title}
                  confirmMessage={`Delete the course "${c.title}"? Its batches and files are deleted too.`}
                />
              </div>
            ),
          },
        ]}
      />
      <Pagination page={list.page} pages={list.pages} total={list.total} noun={["course", "courses"]} />
    </>
  );
}
