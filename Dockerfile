# syntax=docker/dockerfile:1
# The service's image: built with every dependency, shipped with the production ones only, run as
# the unprivileged `node` user of the official image. See docs/operations.md.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The lock file and the patches first, so that a change of source does not reinstall dependencies.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# MALLOC_ARENA_MAX: glibc gives each thread that allocates (the V8 helpers, libuv's pool, the
# CodeLab threads) an arena of its own, and freed memory in the middle of an arena is not returned:
# under a steady load the arenas of the default (up to 16 on two cores) grew by tens of MiB an
# hour, while the second of two stayed the same size (docs/operations.md, Memory).
# NODE_OPTIONS: the old generation's limit also sets how far V8 lets it grow past what is live: up to
# four times with the limit V8 takes from a large host, about 1.4 times at 512 MiB. At four, each burst
# of traffic raised the instance's RSS by tens of MiB for good (docs/operations.md, Memory).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data \
    LOG_FORMAT=json \
    MALLOC_ARENA_MAX=2 \
    NODE_OPTIONS=--max-old-space-size=512
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR holds the exports, the mail outbox and (without DATABASE_URL) the embedded database: the
# only place the service writes, owned by the user it runs as.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 4000
# Liveness only: readiness (/health/ready) is for the proxy or orchestrator to route by.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/src/main.js"]
