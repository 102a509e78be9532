import { booleanFlag, cidrList, positiveInt, secretKey, secretKeyList } from "./setting-schemas";

/** Events and webhooks (src/events, src/webhooks); read with the rest in config.ts. */
export const deliverySettings = {
  EVENT_RETENTION_DAYS: {
    schema: positiveInt(3650).default(30),
    description:
      "Days events are kept for GET /v1/events (and their webhook deliveries); each delivering process deletes older ones hourly.",
  },
  WEBHOOK_DELIVERY_ENABLED: {
    schema: booleanFlag.default(true),
    description:
      "Whether this process (npm start or npm run worker) delivers webhooks. false: it still records events, other processes deliver them (e.g. API replicas without delivery, workers with it).",
  },
  WEBHOOK_ALLOWED_NETWORKS: {
    schema: cidrList(),
    description:
      "Private, loopback or other non-public ranges webhook URLs may point at anyway (CIDR list); plain http is accepted only inside them. Cloud metadata addresses stay refused.",
  },
  WEBHOOK_SECRET_KEY: {
    schema: secretKey.optional(),
    secret: true,
    description:
      "Key that encrypts webhook signing secrets in the database (AES-256-GCM; docs/security.md). Unset: a key generated at the first start and kept in CATALOGUE_DATA_DIR/webhook-secret.key (mode 0600). Processes on several machines sharing one database must all set the same key.",
  },
  WEBHOOK_SECRET_OLD_KEYS: {
    schema: secretKeyList,
    secret: true,
    description:
      "Keys WEBHOOK_SECRET_KEY replaced: secrets sealed with them are read, and sealed again with WEBHOOK_SECRET_KEY at start.",
  },
} as const;
