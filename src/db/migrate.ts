import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Logger } from "../logging/logger";

/** The folder holding package.json and prisma.config.ts: two levels up from source, one from dist/. */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "prisma.config.ts"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("prisma.config.ts not found above the running code");
    dir = parent;
  }
  return dir;
}

const projectRoot = findProjectRoot();

/**
 * Applies pending migrations with the Prisma CLI's own `migrate deploy`, so the app, tests and
 * operators share exactly one migration path. The CLI reads prisma.config.ts from the project root.
 */
export async function applyMigrations(databaseUrl: string, logger: Logger): Promise<void> {
  const cli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const started = Date.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${text}`)),
    );
  });
  const applied = output.match(/The following migration\(s\) have been applied:[\s\S]*/)?.[0];
  logger.info(
    {
      ms: Date.now() - started,
      applied: applied
        ? applied.split("\n").filter((l) => l.includes("└─") || l.includes("migration.sql")).length
        : 0,
    },
    applied ? "database migrations applied" : "database schema is up to date",
  );
}
