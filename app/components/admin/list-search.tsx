import { Form, Link, useLocation } from "react-router";
import { LIST_PARAMS } from "~/web/list-query";
import { cleanText } from "~/schemas/fields";
import { INPUT_CLASS } from "./form-field";
import { BUTTON_STYLES } from "./buttons";

/**
 * A GET search form over a list (?q=), keeping the current tab and filters; a new search starts at page 1.
 * Without JavaScript it is a plain GET form; with it, React Router runs the same navigation.
 */
export function ListSearch({ basePath, label, placeholder }: { basePath: string; label: string; placeholder: string }) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  // Read from the address as typed, so cleaned like any text before it goes back into the page.
  const param = (key: string) => cleanText(params.get(key) ?? "", false);
  const q = param("q");
  const kept = LIST_PARAMS.filter((key) => key !== "q" && key !== "page" && param(key)).map((key) => [key, param(key)] as const);
  const clear = new URLSearchParams(kept.map(([k, v]) => [k, v]));
  return (
    <Form method="get" action={basePath} role="search" className="mb-4 flex flex-wrap items-end gap-2" preventScrollReset>
      {kept.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={`${basePath}-q`} className="mb-1 block text-sm font-semibold text-slate-800">
          {label}
        </label>
        {/* key: a new URL (tab change, Clear) resets the typed text to the URL's search. */}
        <input key={q} id={`${basePath}-q`} type="search" name="q" defaultValue={q} placeholder={placeholder} maxLength={100} className={INPUT_CLASS} />
      </div>
      <button type="submit" className={BUTTON_STYLES.secondary}>
        Search
      </button>
      {q ? (
        <Link to={`${basePath}${clear.size ? `?${clear}` : ""}`} className={BUTTON_STYLES.ghost} preventScrollReset>
          Clear search
        </Link>
      ) : null}
    </Form>
  );
}
