import { Form, useNavigation } from "react-router";
import { inboxStatusLabel } from "~/schemas/values";
import { ChoicesBeside } from "./enquiry-refusal";
import { ErrorBanner } from "./error-banner";
import { WriteGuardFields } from "./write-guard-fields";

/**
 * One POST button per status (spec §4: any status may be set from any other). The current one is marked
 * and pressed-looking; pressing it again is harmless. A press refused because the record changed meanwhile is
 * shown here with the status chosen beside the one stored now: pressing it again applies it.
 */
export function StatusButtons({
  statuses,
  current,
  itemName,
  guard,
  refused,
}: {
  statuses: readonly string[];
  current: string;
  itemName: string;
  /** The record's version and the page's form key: a press on a page drawn before someone else's change is refused. */
  guard?: { version: number; formKey: string };
  /** A press refused for a change meanwhile: its message and the status it asked for. */
  refused?: { message: string; status: string };
}) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "status" ? String(navigation.formData.get("status")) : null;
  return (
    <Form method="post" preventScrollReset>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-800">
          Update status<span className="sr-only"> of {itemName}</span>
        </legend>
        <input type="hidden" name="intent" value="status" />
        {guard ? <WriteGuardFields version={guard.version} formKey={guard.formKey} form="status" /> : null}
        <div className="flex flex-wrap gap-2">
          {statuses.map((s) => {
            const isCurrent = s === current;
            return (
              <button
                key={s}
                type="submit"
                name="status"
                value={s}
                disabled={sending !== null}
                aria-pressed={isCurrent}
                className={`rounded-md px-3 py-1.5 text-sm font-semibold ring-1 ring-inset disabled:opacity-60 ${
                  isCurrent ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50"
                }`}
              >
                {sending === s ? "Updating..." : inboxStatusLabel(s)}
              </button>
            );
          })}
        </div>
        {refused ? (
          <div className="mt-2 space-y-2">
            <ErrorBanner message={refused.message} />
            <ChoicesBeside chose={inboxStatusLabel(refused.status)} stored={inboxStatusLabel(current)} />
          </div>
        ) : null}
      </fieldset>
    </Form>
  );
}
