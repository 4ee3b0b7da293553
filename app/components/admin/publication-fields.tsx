import { formatDateTime, utcToSiteInput } from "~/util/dates";
import { PUBLICATION_STATES, PUBLICATION_STATE_LABELS, type PublicationState } from "~/schemas/values";
import { StatusBadge, type BadgeTone } from "./status-badge";
import { SelectField, TextField } from "./form-field";
import { Tabs } from "./tabs";

type Field = { id: string; name: string; errors?: string[]; defaultValue: string };

const STATE_OPTIONS = PUBLICATION_STATES.map((s) => ({ value: s, label: PUBLICATION_STATE_LABELS[s] }));

/**
 * The Publication fieldset of the course, batch and review forms: the state and, for Scheduled, when to
 * publish (typed and shown in Hyderabad time). Plain fields, so it works without JavaScript; the publish time
 * is shown only while Scheduled is chosen (CSS :has, so also without JavaScript), and the server checks it.
 */
export function PublicationFields({ state, publishAt, className = "" }: { state: Field; publishAt: Field; className?: string }) {
  return (
    <fieldset className={`rounded-md border border-slate-200 p-4 ${className}`}>
      <legend className="px-1 text-sm font-semibold text-slate-800">Publication</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          {...state}
          defaultValue={state.defaultValue || "published"}
          label="State"
          options={STATE_OPTIONS}
          hint="Drafts and scheduled items are not public."
        />
        <TextField
          {...publishAt}
          className="hidden [fieldset:has(select[name=state]_option[value=scheduled]:checked)_&]:block"
          label="Publish at (IST)"
          type="datetime-local"
          hint="Hyderabad time. Used when the state is Scheduled."
        />
      </div>
    </fieldset>
  );
}

/** A record's state and publish time as the form's initial values (the time in Hyderabad, for datetime-local). */
export function publicationDefaults(record: { state?: string; publishAt?: string | null } | undefined): { state: string; publishAt: string } {
  const state = record?.state ?? "published";
  return { state, publishAt: state === "scheduled" && record?.publishAt ? utcToSiteInput(record.publishAt) : "" };
}

const STATE_TONE: Record<PublicationState, BadgeTone> = { draft: "gray", scheduled: "yellow", published: "green" };

/** A list's state badge; a scheduled row also says when it goes public (IST). */
export function PublicationBadge({ state, publishAt }: { state: PublicationState; publishAt?: string | null }) {
  return (
    <>
      <StatusBadge tone={STATE_TONE[state]}>{PUBLICATION_STATE_LABELS[state]}</StatusBadge>
      {state === "scheduled" && publishAt ? <div className="mt-1 text-xs text-slate-600">{`${formatDateTime(publishAt)} IST`}</div> : null}
    </>
  );
}

/** The admin lists' filter by publication state (?state=), as tabs: links, so it works without JavaScript. */
export function PublicationTabs({ basePath }: { basePath: string }) {
  return <Tabs param="state" label="Filter by publication" basePath={basePath} tabs={[{ value: "", label: "All states" }, ...STATE_OPTIONS]} />;
}
