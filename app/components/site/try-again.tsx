import { Form } from "react-router";
import { buttonClass } from "~/components/ui/button";

/** Reloads the page with the same filter (spec §8): a plain GET form, so it works with and without JavaScript. */
export function TryAgain({ action, params = {} }: { action: string; params?: Record<string, string> }) {
  return (
    <Form method="get" action={action} reloadDocument>
      {Object.entries(params).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <button type="submit" className={buttonClass("primary")}>
        Try Again
      </button>
    </Form>
  );
}
