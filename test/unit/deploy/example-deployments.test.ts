import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { loadConfig, settings } from "../../../src/config/config";
import { LIVENESS_PATH, READINESS_PATH } from "../../../src/http/health";
import { METRICS_PATH } from "../../../src/metrics/http-metrics";

const root = new URL("../../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

const packageJson = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
/** The bundles `npm run build` writes: dist/<entry name>.js for each entry point it names. */
const builtEntries = new Set(
  (packageJson.scripts.build ?? "")
    .split(/\s+/)
    .filter((word) => word.endsWith(".ts"))
    .map((file) => `dist/${path.basename(file, ".ts")}.js`),
);
/** node's flags that `npm run crawl` sets (the 512 MB heap). */
/** The heap flags an npm script starts node with. */
const heapFlags = (script: string) =>
  (packageJson.scripts[script] ?? "").split(/\s+/).filter((word) => word.startsWith("--max"));
const crawlFlags = heapFlags("crawl");
const workerFlags = heapFlags("worker");
const DEFAULT_PORT = loadConfig({}).PORT;

type Json = Record<string, unknown>;
interface Container {
  name: string;
  command: string[];
  env: Array<{ name: string; value?: string; valueFrom?: Json }>;
  ports?: Array<{ name: string; containerPort: number }>;
  readinessProbe?: { httpGet: { path: string; port: string } };
  livenessProbe?: { httpGet: { path: string; port: string } };
  resources: { requests: { memory: string }; limits: { memory: string } };
}
interface Manifest {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Json;
}

const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<
    string,
    { image?: string; command?: string[]; environment?: Record<string, string> } & Json
  >;
};
/**
 * Values compose takes from the operator's shell (`${NAME:?…}`), each with a valid sample: a
 * variable not listed here fails the settings test, as a typo would.
 */
const OPERATOR_SUPPLIED: Record<string, string> = {
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
};
const interpolated = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(env).map(([name, value]) => {
      const variable = value.match(/^\$\{([A-Z0-9_]+)(?::\?[^}]*)?\}$/)?.[1];
      if (variable === undefined) return [name, value];
      const sample = OPERATOR_SUPPLIED[variable];
      if (sample === undefined) throw new Error(`${name} takes an unknown variable ${variable}`);
      return [name, sample];
    }),
  );
const manifests: Manifest[] = readdirSync(path.join(root, "deploy/kubernetes"))
  .filter((file) => file.endsWith(".yaml") && file !== "kustomization.yaml")
  .flatMap((file) =>
    parseAllDocuments(read(`deploy/kubernetes/${file}`)).map((document) => document.toJS() as Manifest),
  );
const dockerfile = read("Dockerfile");

/** The pod template of a Deployment or a CronJob. */
function podOf(manifest: Manifest): { annotations: Record<string, string>; containers: Container[] } {
  const spec =
    manifest.kind === "CronJob" ? (manifest.spec.jobTemplate as { spec: Json }).spec : manifest.spec;
  const template = spec.template as { metadata?: { annotations?: Record<string, string> }; spec: Json };
  return {
    annotations: template.metadata?.annotations ?? {},
    containers: template.spec.containers as Container[],
  };
}
const workloads = manifests.filter((m) => m.kind === "Deployment" || m.kind === "CronJob");
const container = (name: string) => {
  const found = workloads.flatMap((m) => podOf(m).containers).find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name}`);
  return found;
};
const envOf = (c: Container) =>
  Object.fromEntries(c.env.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value] as const])));
const portOf = (c: Container, name: string) => c.ports?.find((p) => p.name === name)?.containerPort;

/** Why a command would not run in the image, or null when every program and file it names exists. */
function problemWith(argv: readonly string[]): string | null {
  const [program, ...rest] = argv;
  if (program === "sh" && rest[0] === "-c") {
    const nodeRuns = [...(rest[1] ?? "").matchAll(/\bnode((?:\s+--?[\w-]+(?:=\S+)?)*)\s+([^\s&;|]+)/g)];
    if (nodeRuns.length === 0) return `no node command in ${rest[1]}`;
    for (const run of nodeRuns) {
      const problem = problemWith([
        "node",
        ...(run[1] ?? "").trim().split(/\s+/).filter(Boolean),
        run[2] ?? "",
      ]);
      if (problem) return problem;
    }
    return null;
  }
  if (program === "npm") {
    const script = rest[0] === "run" ? rest[1] : rest[0];
    return script !== undefined && script in packageJson.scripts ? null : `no npm script ${script}`;
  }
  if (program !== "node") return `unknown program ${program}`;
  const flags = rest.filter((word) => word.startsWith("-"));
  if (flags.includes("-e")) return null; // inline code (health checks)
  for (const flag of flags) {
    if (!process.allowedNodeEnvironmentFlags.has(flag.split("=")[0] ?? flag))
      return `unknown node flag ${flag}`;
  }
  const script = rest.find((word) => !word.startsWith("-"));
  return script !== undefined && builtEntries.has(script) ? null : `${script} is not a built entry point`;
}

function mebibytes(quantity: string): number {
  const match = quantity.match(/^(\d+)(Mi|Gi)$/);
  if (!match) throw new Error(`unexpected quantity ${quantity}`);
  return Number(match[1]) * (match[2] === "Gi" ? 1024 : 1);
}

describe("the example deployments", () => {
  it("when their commands are read, then each runs a built entry point, an npm script or a known node flag", () => {
    const commands: string[][] = [];
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image?.startsWith("postgres")) continue; // not the product's image
      commands.push(service.command ?? [], ...healthCheckCommand(service));
      expect(service.command, name).toBeDefined();
    }
    for (const manifest of workloads) for (const c of podOf(manifest).containers) commands.push(c.command);
    const cmd = dockerfile.match(/^CMD (\[.*\])$/m)?.[1];
    commands.push(JSON.parse(cmd ?? "[]") as string[]);
    expect(commands.length).toBeGreaterThanOrEqual(8);
    expect(commands.map((command) => [command.join(" "), problemWith(command)])).toEqual(
      commands.map((command) => [command.join(" "), null]),
    );
  });

  it("when a crawl runs, then it has npm run crawl's heap limit wherever it is started", () => {
    expect(crawlFlags).toEqual(["--max-old-space-size=512"]);
    expect(container("crawl").command).toEqual(["node", ...crawlFlags, "dist/crawl.js"]);
    expect(compose.services.crawl?.command?.join(" ")).toContain(
      `node ${crawlFlags.join(" ")} dist/crawl.js`,
    );
  });

  it("when a worker runs, then it has npm run worker's heap limit wherever it is started", () => {
    expect(workerFlags).toEqual(["--max-old-space-size=384"]);
    expect(container("worker").command).toEqual(["node", ...workerFlags, "dist/worker.js"]);
    expect(compose.services.worker?.command).toEqual(["node", ...workerFlags, "dist/worker.js"]);
  });

  it("when their settings are read, then each is a real setting with a valid value", () => {
    const environments = [
      ...Object.values(compose.services)
        .filter((service) => !service.image?.startsWith("postgres"))
        .map((service) => interpolated(service.environment ?? {})),
      ...workloads.flatMap((m) => podOf(m).containers.map(envOf)),
    ];
    for (const env of environments) {
      expect(Object.keys(env).filter((name) => !(name in settings))).toEqual([]);
      expect(() => loadConfig(env)).not.toThrow();
    }
    for (const c of workloads.flatMap((m) => podOf(m).containers)) {
      expect(c.env.map((e) => e.name).filter((name) => !(name in settings))).toEqual([]);
    }
  });

  it("when the image is checked for health, then it asks the readiness path on the product's port", () => {
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${DEFAULT_PORT}$`, "m"));
    expect(dockerfile).toMatch(new RegExp(`PORT=${DEFAULT_PORT}\\b`));
    const healthCheck = dockerfile.match(/^HEALTHCHECK [^\n]*\\\n\s+CMD (.*)$/m)?.[1] ?? "";
    expect(healthCheck).toContain(`(process.env.PORT||${DEFAULT_PORT})+'${READINESS_PATH}'`);
  });

  it("when compose runs the product, then ports and the worker's health check match the settings", () => {
    const { api, worker, crawl } = compose.services;
    expect(api?.deploy).toEqual({ replicas: 2 });
    expect(api?.ports).toEqual([`3000-3001:${api?.environment?.PORT}`]);
    expect(api?.expose).toEqual([api?.environment?.METRICS_PORT]);
    const workerCheck = healthCheckCommand(worker ?? {})
      .flat()
      .join(" ");
    expect(workerCheck).toContain(`http://127.0.0.1:${worker?.environment?.METRICS_PORT}${METRICS_PATH}`);
    expect(crawl?.healthcheck).toEqual({ disable: true }); // no port: the image's check would fail
  });

  it("when Kubernetes runs the product, then probes, ports, scraping and resources match the product", () => {
    const api = container("api");
    const apiEnv = envOf(api);
    expect(portOf(api, "http")).toBe(Number(apiEnv.PORT ?? DEFAULT_PORT));
    expect(portOf(api, "metrics")).toBe(Number(apiEnv.METRICS_PORT));
    expect(api.readinessProbe?.httpGet).toEqual({ path: READINESS_PATH, port: "http" });
    expect(api.livenessProbe?.httpGet).toEqual({ path: LIVENESS_PATH, port: "http" });
    const worker = container("worker");
    expect(worker.livenessProbe?.httpGet).toEqual({ path: METRICS_PATH, port: "metrics" });
    expect(portOf(worker, "metrics")).toBe(Number(envOf(worker).METRICS_PORT));
    for (const manifest of workloads.filter((m) => m.kind === "Deployment")) {
      const { annotations, containers } = podOf(manifest);
      expect(annotations["prometheus.io/path"]).toBe(METRICS_PATH);
      expect(Number(annotations["prometheus.io/port"])).toBe(
        Number(envOf(containers[0] as Container).METRICS_PORT),
      );
    }
    const service = manifests.find((m) => m.kind === "Service");
    const servicePorts = (service?.spec.ports ?? []) as Array<{ targetPort: string }>;
    for (const port of servicePorts) expect(api.ports?.map((p) => p.name)).toContain(port.targetPort);
    // The API: ~0.5 GB at rest, up to ~0.9 GB during a reload at 100,000 services.
    expect(mebibytes(api.resources.requests.memory)).toBeGreaterThanOrEqual(1024);
    // The crawl: a 512 MB heap plus what lives outside it.
    const crawl = container("crawl");
    expect(mebibytes(crawl.resources.requests.memory)).toBeGreaterThan(512);
    expect(mebibytes(crawl.resources.limits.memory)).toBeGreaterThan(
      mebibytes(crawl.resources.requests.memory),
    );
  });
});

/** A compose health check as argv: CMD's own words, CMD-SHELL's line through sh. */
function healthCheckCommand(service: Json): string[][] {
  const test = (service.healthcheck as { test?: string[] } | undefined)?.test;
  if (!test) return [];
  if (test[0] === "CMD") return [test.slice(1)];
  if (test[0] === "CMD-SHELL") return [["sh", "-c", test[1] ?? ""]];
  return [test];
}
