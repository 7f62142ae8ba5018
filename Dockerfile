# syntax=docker/dockerfile:1
# One multi-stage image per app, all built from the repository root:
#   docker build --target api -t bhis-api .        (also: ingest, scoring, cli)
# Each app image holds only its build folder (tools/build/build-app.js) and the production packages
# of its own pruned lock file, runs as the unprivileged `node` user and has a HEALTHCHECK.
# Node 24, the active LTS line (the code also runs on Node 20.19+, what the test machines use)
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: the whole workspace with its dev dependencies, then one folder per app with its own
# production packages installed from its pruned lock file
FROM ${NODE_IMAGE} AS build
# zstd-napi (the compression of event records) builds its native addon with node-gyp where no prebuilt
# binary is reached: the slim image has no compiler
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /repo
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY tools ./tools
COPY libs ./libs
COPY apps ./apps
RUN for app in api ingest scoring cli; do \
      node tools/build/build-app.js "$app" --out-dir "/out/$app" && npm ci --prefix "/out/$app" --omit=dev --no-audit --no-fund || exit 1; \
    done

# --- runtime base: Node only, the unprivileged `node` user, a data folder it may write (downloads,
# synthetic cities); the code stays owned by root, read-only for the app
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production DATA_DIR=/data
WORKDIR /app
RUN mkdir /data && chown node:node /data
USER node

# --- api: HTTP on $PORT; healthy when /api/v1/health answers 200 (Postgres and Redis reached)
FROM runtime AS api
COPY --from=build /out/api ./
ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/api/src/main.js"]

# --- workers: healthy while their heartbeat file is younger than 30 s (libs/worker-platform/src/heartbeat.ts)
FROM runtime AS worker
ENV WORKER_HEARTBEAT_FILE=/tmp/bhis-heartbeat
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const f = process.env.WORKER_HEARTBEAT_FILE; process.exit(Date.now() - require('node:fs').statSync(f).mtimeMs < 30000 ? 0 : 1)"]

FROM worker AS ingest
COPY --from=build /out/ingest ./
CMD ["node", "apps/ingest/src/main.js"]

# scores and webhook deliveries
FROM worker AS scoring
COPY --from=build /out/scoring ./
CMD ["node", "apps/scoring/src/main.js"]

# --- cli: one-shot commands (`db migrate`, `keys create`, `ingest ...`); no long-running process to check
FROM runtime AS cli
COPY --from=build /out/cli ./
HEALTHCHECK NONE
ENTRYPOINT ["node", "tools/cli/src/main.js"]
CMD ["--help"]
