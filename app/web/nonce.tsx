import { createContext, useContext, type ReactNode } from "react";

const NonceContext = createContext<string | undefined>(undefined);

/** Carries the per-request CSP nonce from entry.server to the document's <Scripts>. */
export function NonceProvider({ value, children }: { value: string | undefined; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
