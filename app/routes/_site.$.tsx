// Any unknown path: the root error boundary renders Page Not Found with status 404.
export function loader() {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
