# syntax=docker/dockerfile:1
# x402 catalogue: multi-stage, production dependencies only, non-root, health-checked.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY src/db ./src/db
# postinstall runs `prisma generate`, which writes the client into src/generated.
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    CATALOGUE_DATA_DIR=/data
WORKDIR /app
RUN groupadd --system catalogue && useradd --system --gid catalogue --home /app catalogue \
    && mkdir -p /data && chown catalogue:catalogue /data
COPY --from=deps --chown=catalogue:catalogue /app/node_modules ./node_modules
COPY --from=deps --chown=catalogue:catalogue /app/src/generated ./src/generated
COPY --chown=catalogue:catalogue package.json package-lock.json prisma.config.ts tsconfig.json ./
COPY --chown=catalogue:catalogue prisma ./prisma
COPY --chown=catalogue:catalogue src ./src
COPY --chown=catalogue:catalogue jobs ./jobs
USER catalogue
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
