import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// The server's HTML is complete and usable on its own: let the browser paint it first, then hydrate
// (on a slow phone hydration is the longest task of the load and would otherwise hold back the first paint).
if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(hydrate, 0));
else hydrate();
