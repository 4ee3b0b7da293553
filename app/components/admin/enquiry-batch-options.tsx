import type { BatchChoice } from "~/services/enquiry-lists.server";

/**
 * The options of a batch select: the enquiry's own course's batches first, under its title, each with its seats left
 * ("Jan 11, 2027 (Online) · 3 seats left", or "full"), then every other course's under "Other courses", so a batch
 * of the wrong course is never one slip of the finger away unannounced.
 */
export function BatchOptions({ batches, course, none = "No batch" }: { batches: BatchChoice[]; course: string; none?: string | null }) {
  const own = batches.filter((b) => b.ownCourse);
  const other = batches.filter((b) => !b.ownCourse);
  return (
    <>
      {none !== null ? <option value="">{none}</option> : null}
      {own.length ? (
        <optgroup label={course}>
          {own.map((b) => (
            <option key={b.id} value={b.id}>
              {b.label}
            </option>
          ))}
        </optgroup>
      ) : null}
      {other.length ? (
        <optgroup label="Other courses">
          {other.map((b) => (
            <option key={b.id} value={b.id}>
              {b.label}
            </option>
          ))}
        </optgroup>
      ) : null}
    </>
  );
}
