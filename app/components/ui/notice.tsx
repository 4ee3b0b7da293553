import type { ReactNode } from "react";
import { AlertIcon } from "./icons";

/** An empty result or a load failure, with the control that gets the visitor out of it. */
export function Notice({ tone = "info", children, action }: { tone?: "info" | "error"; children: ReactNode; action?: ReactNode }) {
  const colours = tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-slate-200 bg-slate-50 text-slate-700";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`flex flex-col items-center gap-4 rounded-xl border px-6 py-10 text-center ${colours}`}>
      <p className="flex items-center gap-2 font-medium">
        {tone === "error" ? <AlertIcon className="shrink-0 text-lg" /> : null}
        {children}
      </p>
      {action}
    </div>
  );
}
