# syntax=docker/dockerfile:1
# x402 catalogue: built to JavaScript in one stage; the runtime carries only what runs: the bundle
# (dist/), production dependencies, and what `prisma migrate deploy` reads at start (the schema,
# the migrations, prisma.config.ts and the migration adapter it imports). No TypeScript, tsx or
# esbuild at run time. Non-root, health-checked, and node itself is PID 1 so SIGTERM reaches it.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts tsconfig.json ./
COPY prisma ./prisma
COPY src ./src
COPY jobs ./jobs
# postinstall runs `prisma generate` into src/generated, which the bundle includes.
RUN npm ci --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY src/db/migration-adapter.ts src/db/connection-options.ts ./src/db/
# Install scripts must run: the embedded Postgres package restores its libraries' symlinks in
# one. Then drop what never runs here: the generated client (the bundle has it), other
# databases' query engines, TypeScript (an optional peer of Prisma), type declarations, source maps.
RUN npm ci --omit=dev --no-audit --no-fund \
    && rm -rf src/generated node_modules/typescript \
    && find node_modules \( -path '*/@prisma/client/runtime/*' -o -path '*/prisma/build/*' \) \
         \( -name '*mysql*' -o -name '*sqlite*' -o -name '*sqlserver*' -o -name '*cockroachdb*' \) -delete \
    && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

FROM node:20-bookworm-slim AS runtime
# glibc malloc: two arenas, and blocks from 128 KB up always mapped (returned to the system when
# freed): the API's catalogue reload allocates and frees large typed arrays, and with the defaults
# freed memory stays in the process (reload peak at 100,000 services ~100 MB lower with these;
# docs/operations.md, Docker).
ENV NODE_ENV=production \
    PORT=3000 \
    CATALOGUE_DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
RUN groupadd --system catalogue && useradd --system --gid catalogue --home /app catalogue \
    && mkdir -p /data && chown catalogue:catalogue /data
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY package.json prisma.config.ts ./
COPY prisma ./prisma
COPY src/db/migration-adapter.ts src/db/connection-options.ts ./src/db/
COPY --from=build /app/dist ./dist
USER catalogue
EXPOSE 3000
VOLUME ["/data"]
# Healthy means ready for traffic: /readyz answers 200 once the in-memory catalogue has loaded
# (the start period covers a large catalogue's first load) and while the database answers. Only
# the API (the default command) listens on PORT: the worker and crawl services disable it
# (compose.yaml) or have their own probes (deploy/kubernetes).
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly, not `npm start`: docker stop's SIGTERM goes to PID 1, and the product's own
# handler stops the HTTP server, the work in flight and the embedded Postgres within seconds.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
