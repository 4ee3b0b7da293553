/** Shared by playwright.config.ts, the server start script and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT || 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The public-site specs get a server and database of their own, so staff tests changing content cannot move their counts. */
export const E2E_PUBLIC_PORT = E2E_PORT + 50; // specs with servers of their own (servers.ts) use E2E_PORT + 1…49, each its own offset
export const E2E_PUBLIC_BASE_URL = `http://127.0.0.1:${E2E_PUBLIC_PORT}`;
export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "e2e-Admin-password-1";
