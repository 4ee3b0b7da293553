import { Children, isValidElement, useContext, type ReactElement, type ReactNode } from "react";
import { Meta, UNSAFE_DataRouterStateContext, useMatches } from "react-router";
import type { SiteFormResult } from "~/web/site-forms";

type Refusal = Pick<SiteFormResult, "status"> & { error?: string; formError?: string; fields?: Record<string, string> };

/** A site form's refusal, or one of /me's (an error, a form error or a field's message). */
function isRefusal(d: Refusal | null): boolean {
  if (!d) return false;
  return d.status === "error" || Boolean(d.error) || Boolean(d.formError) || Object.keys(d.fields ?? {}).length > 0;
}

/** The page's title with "Error: " in front while a public form the page just refused is shown, else null. */
function useErrorTitle(): string | null {
  const state = useContext(UNSAFE_DataRouterStateContext);
  const matches = useMatches();
  const refused = Object.values(state?.actionData ?? {}).some((d) => isRefusal(d as Refusal | null));
  if (!refused) return null;
  const title = [...matches]
    .reverse()
    .map((m) => (m.data as { seo?: { title?: string }[] } | undefined)?.seo?.find((d) => typeof d.title === "string")?.title)
    .find(Boolean);
  return title ? `Error: ${title}` : null;
}

/**
 * React Router's <Meta />, except that while a public form the page just refused is shown the title reads
 * "Error: <page title>" (GOV.UK's pattern: a screen reader hears it first), on the page a plain POST answered (no
 * JavaScript); with JavaScript the form's error summary sets document.title. A document has one <title>, so the
 * routes' own is left out then rather than followed by a second one. Meta is called as a function (it only reads
 * router context with hooks, always in the same order) so its elements can be filtered.
 */
export function SiteMeta() {
  const errorTitle = useErrorTitle();
  const meta = Meta() as ReactElement<{ children?: ReactNode }>;
  if (!errorTitle) return meta;
  const rest = Children.toArray(meta.props.children).filter((el) => !(isValidElement(el) && el.type === "title"));
  return (
    <>
      <title>{errorTitle}</title>
      {rest}
    </>
  );
}
