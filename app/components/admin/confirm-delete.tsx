import { Form, useNavigation, useSubmit } from "react-router";
import { LinkButton, SubmitButton } from "./buttons";
import { DialogRoute } from "./dialog-route";

/**
 * The Delete action of a list row. Without JavaScript it is a link to the confirmation page
 * (`…/:id/delete`), whose form POSTs the delete. With JavaScript the same link asks with confirm()
 * and POSTs straight to that page's action, which deletes and redirects back to the list.
 */
export function DeleteButton({
  to,
  confirmMessage,
  label = "Delete",
  itemName,
  disabled = false,
  disabledReason,
}: {
  /** The confirmation page, e.g. /admin/courses/123/delete (may carry the list's search params). */
  to: string;
  confirmMessage: string;
  label?: string;
  /** Names the row for screen readers: "Delete SOC Analyst Training Program". */
  itemName?: string;
  disabled?: boolean;
  /** Shown next to a disabled button, e.g. "You cannot delete your own account". */
  disabledReason?: string;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" && navigation.formAction === to;
  const className = "inline-flex items-center rounded-md px-2.5 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50";
  const accessibleName = itemName ? `${label} ${itemName}` : undefined;

  if (disabled) {
    return (
      <span className="inline-flex flex-col items-start">
        <button type="button" disabled aria-label={accessibleName} className={`${className} cursor-not-allowed opacity-50 hover:bg-transparent`}>
          {label}
        </button>
        {disabledReason ? <span className="text-xs text-slate-600">{disabledReason}</span> : null}
      </span>
    );
  }
  return (
    <a
      href={to}
      aria-label={accessibleName}
      className={className}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        if (deleting) return;
        if (window.confirm(confirmMessage)) submit(null, { method: "post", action: to, preventScrollReset: true });
      }}
    >
      {deleting ? "Deleting..." : label}
    </a>
  );
}

/** The no-JavaScript confirmation page of a delete: a dialog route with one POST form. */
export function ConfirmDeletePage({
  title,
  backTo,
  children,
  error,
  confirmLabel = "Delete",
  disabled = false,
}: {
  title: string;
  backTo: string;
  children: React.ReactNode;
  error?: React.ReactNode;
  confirmLabel?: string;
  /** The item may not be deleted (e.g. your own account): the button stays, disabled. */
  disabled?: boolean;
}) {
  return (
    <DialogRoute title={title} backTo={backTo} size="sm">
      {error}
      <div className="text-sm text-slate-700">{children}</div>
      <Form method="post" className="mt-6 flex flex-wrap justify-end gap-3">
        <LinkButton to={backTo} variant="secondary" preventScrollReset>
          Cancel
        </LinkButton>
        <SubmitButton variant="danger" pendingText="Deleting..." disabled={disabled}>
          {confirmLabel}
        </SubmitButton>
      </Form>
    </DialogRoute>
  );
}
