import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Logger } from "../logging/logger";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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
