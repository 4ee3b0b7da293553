import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// File-based routes (app/routes/*): `admin.courses.tsx` is /admin/courses, `api.courses.$id.ts` is /api/courses/:id,
// `$.tsx` catches every unknown path. See DESIGN.md §3 for the URL design.
export default flatRoutes() satisfies RouteConfig;
