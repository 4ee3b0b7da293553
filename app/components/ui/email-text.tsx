import { Fragment } from "react";

/**
 * An e-mail address that wraps, when it must, only before its "@" and its dots ("ravi.kumar" / "@cybersoc" /
 * ".in"), never inside a word nor at a hyphen (issue 37.10: break-all cut "ravi.ku|mar"). The pieces between are short enough
 * for a phone's card; a table column is at least as wide as the longest of them.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  const pieces = email.split(/(?=[@.])/);
  return (
    <span className={`break-normal ${className ?? ""}`}>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {i ? <wbr /> : null}
          <span className="whitespace-nowrap">{piece}</span>
        </Fragment>
      ))}
    </span>
  );
}
