import { Typed } from "~/components/ui/typed";
import type { EditConflict } from "~/web/edit-conflict";

/**
 * Above a form drawn again from what the record holds now: "This batch was changed by … Here is what it holds now."
 * and, where this person's form held something else (what they typed, or what it showed before the other change),
 * their values (not saved), to copy back if they still want them. Announced at once (role="alert"), with or without
 * JavaScript.
 */
export function EditConflictNotice({ conflict, className = "" }: { conflict?: EditConflict | null; className?: string }) {
  if (!conflict) return null;
  return (
    <div role="alert" data-testid="edit-conflict" className={`rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 ${className}`}>
      <p className="font-semibold">{conflict.message}</p>
      {conflict.yours.length ? (
        <>
          <p className="mt-2">The form below shows what is stored now. Where your form differed from it (not saved):</p>
          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
            {conflict.yours.map((y) => (
              <div key={y.label} className="contents">
                <dt className="font-medium">{y.label}</dt>
                <dd className="break-words">
                  <Typed>{y.value}</Typed>
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : (
        <p className="mt-2">The form below shows what is stored now; your entries matched it or changed nothing.</p>
      )}
    </div>
  );
}
