# syntax=docker/dockerfile:1
# The /v1 read server with the published snapshots. Build: docker build -t catalog .
# Run:   docker run --rm -p 8080:8080 catalog
# (docs/operations.md, "Container": keys, plans, quota state, Redis, a newer snapshot.)

# --- build: full install (TypeScript), compile to dist/ ------------------------------------
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY src/cli/bin.mjs src/cli/bin.mjs
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY bench bench
RUN npm run build

# --- runtime: production dependencies, dist/ and the snapshots, as a non-root user ----------
FROM node:22-slim
# tini is PID 1: it forwards SIGTERM/SIGINT to node and reaps zombies, so `docker stop`
# drains the server (in-flight requests finish, quota is flushed) and exits 0.
RUN apt-get update \
  && apt-get install --yes --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    CATALOG_SNAPSHOTS=/app/snapshots \
    CATALOG_QUOTA_FILE=/var/lib/catalog/quota.json \
    CATALOG_KEYS=/etc/catalog/keys.json
COPY package.json package-lock.json ./
COPY src/cli/bin.mjs src/cli/bin.mjs
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY snapshots snapshots
RUN mkdir -p /var/lib/catalog /etc/catalog && chown node:node /var/lib/catalog
USER node
VOLUME ["/var/lib/catalog"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/cli/main.js", "serve"]
