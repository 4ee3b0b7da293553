import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { afterCommit, beforeCommit, db, dialect, inTransaction } from "~db/client.server";
import { useTestDatabase as setupTestDatabase } from "../helpers/db";

/**
 * inTransaction(): model calls inside join one transaction, a throw rolls all of it back, and on MySQL a
 * deadlock victim is run again instead of surfacing as a 500. Runs on SQLite, and on MariaDB with TEST_MYSQL_URL.
 */
setupTestDatabase();

beforeAll(async () => {
  await sql`create table probe (id integer primary key, n integer not null)`.execute(db());
  await sql`insert into probe (id, n) values (1, 0), (2, 0)`.execute(db());
});

const value = async (id: number) => (await sql<{ n: number }>`select n from probe where id = ${id}`.execute(db())).rows[0].n;

describe("transactions", () => {
  it("rolls back every write of a unit of work that throws, nested calls included", async () => {
    await expect(
      inTransaction(async () => {
        await sql`update probe set n = n + 1 where id = 1`.execute(db());
        await inTransaction(async () => sql`update probe set n = n + 1 where id = 2`.execute(db()));
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect([await value(1), await value(2)]).toEqual([0, 0]);
  });

  it("runs a before-commit hook once per key at the end, and after-commit hooks only once committed", async () => {
    const order: string[] = [];
    await inTransaction(async () => {
      for (let i = 0; i < 3; i++) {
        await beforeCommit("bump", async () => {
          order.push("before");
          await sql`update probe set n = n + 1 where id = 2`.execute(db());
        });
        afterCommit(() => order.push("after"));
      }
      order.push("work");
    });
    expect(order).toEqual(["work", "before", "after", "after", "after"]);
    expect(await value(2)).toBe(1);

    const rolledBack: string[] = [];
    await expect(
      inTransaction(async () => {
        await beforeCommit("bump", async () => void rolledBack.push("before"));
        afterCommit(() => rolledBack.push("after"));
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(rolledBack).toEqual([]);
    await sql`update probe set n = 0 where id = 2`.execute(db());
  });

  it.runIf(process.env.TEST_MYSQL_URL)("runs a deadlock's victim again, so both units of work commit", async () => {
    expect(dialect()).toBe("mysql");
    let attempts = 0;
    let firstLocks = 0;
    let committed = 0;
    let bothLocked!: () => void;
    const barrier = new Promise<void>((resolve) => (bothLocked = resolve));
    // Each locks one row, waits until the other has locked the other row, then wants it: a deadlock.
    const crossing = (first: number, second: number) =>
      inTransaction(async () => {
        attempts++;
        afterCommit(() => committed++);
        await sql`update probe set n = n + 1 where id = ${first}`.execute(db());
        if (++firstLocks === 2) bothLocked();
        await barrier;
        await sql`update probe set n = n + 10 where id = ${second}`.execute(db());
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(attempts).toBe(3);
    // The rolled-back attempt's hook never ran: one per unit of work that committed.
    expect(committed).toBe(2);
    expect([await value(1), await value(2)]).toEqual([11, 11]);
  });
});
