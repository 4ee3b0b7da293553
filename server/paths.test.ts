import { describe, expect, it } from "vitest";
import { isAdminPath, isApiPath, routePath } from "./paths";

describe("the site's areas, however a path is spelt", () => {
  it("reads a path as the router does: decoded, lower-case, without repeated slashes", () => {
    expect(routePath("/API/Auth/Register")).toBe("/api/auth/register");
    expect(routePath("/%61pi/auth/register")).toBe("/api/auth/register");
    expect(routePath("//admin//logout")).toBe("/admin/logout");
    expect(routePath("/admin/logout?x=1")).toBe("/admin/logout");
    expect(routePath("/%E0%A4%A")).toBe("/%e0%a4%a");
  });

  it("knows the API in every spelling, and that .data requests are pages", () => {
    for (const path of ["/api", "/api/", "/API/enquiries", "/Api/enquiries/1/notes", "/%61pi/auth/register", "/%41PI/x", "//api/courses"])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ["/", "/apis", "/api.data", "/courses", "/admin/api"]) expect(isApiPath(path), path).toBe(false);
  });

  it("knows the back office in every spelling", () => {
    for (const path of ["/admin", "/admin/", "/ADMIN/logout", "/Admin/courses/save", "/%61dmin/courses", "//admin/users", "/admin.data", "/admin/courses.data"])
      expect(isAdminPath(path), path).toBe(true);
    for (const path of ["/", "/administrator", "/courses/admin", "/api/admin"]) expect(isAdminPath(path), path).toBe(false);
  });
});
