import { useContext } from "react";
import { UNSAFE_DataRouterStateContext, useMatches } from "react-router";
import type { SiteFormResult } from "~/web/site-forms";

/**
 * "Error: <page title>" as the document's title while a public form the page just refused is shown (GOV.UK's
 * pattern: a screen reader hears it first). Rendered in the head before the routes' own <title>, so it is the one
 * browsers use, on the page a plain POST answered (no JavaScript); with JavaScript the form's error summary sets it.
 */
export function ErrorTitle() {
  const state = useContext(UNSAFE_DataRouterStateContext);
  const matches = useMatches();
  const refused = Object.values(state?.actionData ?? {}).some((d) => (d as SiteFormResult | null)?.status === "error");
  if (!refused) return null;
  const title = [...matches]
    .reverse()
    .map((m) => (m.data as { seo?: { title?: string }[] } | undefined)?.seo?.find((d) => typeof d.title === "string")?.title)
    .find(Boolean);
  return title ? <title>{`Error: ${title}`}</title> : null;
}
