import { inputClass } from "~/components/ui/field";
import { ENQUIRY_FILE_COUNT_MESSAGE, ENQUIRY_FILE_MAX_BYTES, ENQUIRY_FILE_SIZE_MESSAGE, ENQUIRY_FILE_TYPE_MESSAGE, ENQUIRY_MAX_FILES } from "~/schemas/enquiry";
import { acceptList, looksAccepted, typeNames } from "~/schemas/uploads";

/** The browser's early check of the chosen files (the server checks again, by content). */
export function checkAttachments(files: File[]): string | undefined {
  if (files.length > ENQUIRY_MAX_FILES) return ENQUIRY_FILE_COUNT_MESSAGE;
  if (files.some((f) => !looksAccepted("attachment", f))) return ENQUIRY_FILE_TYPE_MESSAGE;
  // "Less than 5MB", as the server counts it.
  if (files.some((f) => f.size >= ENQUIRY_FILE_MAX_BYTES)) return ENQUIRY_FILE_SIZE_MESSAGE;
  return undefined;
}

export function AttachmentsField({ error, onChange }: { error?: string; onChange: (files: File[]) => void }) {
  return (
    <div className="sm:col-span-2">
      <label htmlFor="enquiry-attachments" className="mb-1.5 block text-sm font-medium text-slate-800">
        Attachments (optional)
      </label>
      <input
        id="enquiry-attachments"
        type="file"
        name="filePaths"
        multiple
        accept={acceptList("attachment")}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "enquiry-attachments-hint enquiry-attachments-error" : "enquiry-attachments-hint"}
        onChange={(event) => onChange(Array.from(event.currentTarget.files ?? []))}
        className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-brand-800`}
      />
      <p id="enquiry-attachments-hint" className="mt-1 text-xs text-slate-600">
        Resume or certificates: up to {ENQUIRY_MAX_FILES} files ({typeNames("attachment")}), at most 5 MB each.
      </p>
      <p id="enquiry-attachments-error" className="mt-1 text-sm text-red-700 empty:hidden">
        {error ?? ""}
      </p>
    </div>
  );
}
