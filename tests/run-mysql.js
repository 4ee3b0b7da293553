// npm run test:mysql: the integration suite against MySQL/MariaDB. Each test file creates its own database
// on the server named by TEST_MYSQL_URL (default mysql://root@127.0.0.1:3306) and drops it afterwards.
import { spawnSync } from "node:child_process";

const url = process.env.TEST_MYSQL_URL || "mysql://root@127.0.0.1:3306";
const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "tests/integration", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TEST_MYSQL_URL: url },
});
process.exit(result.status ?? 1);
