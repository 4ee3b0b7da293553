import { ShieldIcon } from "~/components/ui/icons";
import { SITE } from "~/config/site";

export function Logo() {
  return (
    <>
      <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-accent-600 text-xl text-white">
        <ShieldIcon />
      </span>
      <span className="text-lg font-bold leading-tight tracking-tight">
        {SITE.shortName}
        <span className="font-medium"> Academy</span>
      </span>
    </>
  );
}
