import type { Config } from "../config/config";
import { type TrustSettings, trustSettingsFromConfig } from "../trust/refresh";

/** How probing behaves; built from the config, or given directly by tests and benchmarks. */
export interface ProbeSettings {
  enabled: boolean;
  /** Cron expression (UTC) of the sweep that enqueues every listed endpoint. */
  schedule: string;
  /** Probes in flight at once, per process. */
  concurrency: number;
  /** Politeness per host: sweeps stagger each host's jobs this far apart and each process enforces it. */
  perHostPerMinute: number;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
  /** CIDR ranges reachable although not public (loopback in tests); metadata addresses never are. */
  allowedNetworks: string[];
  userAgent: string;
  /** How often an idle worker loop asks the queue for work. */
  pollingIntervalSeconds: number;
  /** Health thresholds of the trust verdicts refreshed after each sweep. */
  trust: TrustSettings;
}

export function probeSettingsFromConfig(config: Config): ProbeSettings {
  return {
    enabled: config.PROBE_ENABLED,
    schedule: config.PROBE_SCHEDULE,
    concurrency: config.PROBE_CONCURRENCY,
    perHostPerMinute: config.PROBE_PER_HOST_PER_MINUTE,
    timeoutMs: config.PROBE_TIMEOUT_MS,
    maxResponseBytes: config.PROBE_MAX_RESPONSE_BYTES,
    maxRedirects: 3,
    allowedNetworks: config.PROBE_ALLOWED_NETWORKS,
    userAgent: config.PROBE_USER_AGENT,
    pollingIntervalSeconds: 2,
    trust: trustSettingsFromConfig(config),
  };
}
