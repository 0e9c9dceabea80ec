# syntax=docker/dockerfile:1
# Multi-stage: build with all dependencies, run with production ones only, as a non-root user.

# The release this image replaces: its dist/ goes into the build, which keeps the hashed files the new
# build no longer has for 7 days (scripts/build/previous-assets.ts), so tabs opened before the deploy
# keep loading their pages' code. Pass the running image:
#   docker build --build-arg PREVIOUS_IMAGE=registry.example/chicago-news:current .
# Without it (a first release) there is nothing to keep.
ARG PREVIOUS_IMAGE=no-previous-release

FROM node:26-bookworm-slim AS no-previous-release
RUN mkdir -p /app/dist

FROM ${PREVIOUS_IMAGE} AS previous-release

FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The image already has Node 26: skip the `node` dev package's download of its own binary.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
COPY --from=previous-release /app/dist ./dist
RUN node scripts/build.ts && npm prune --omit=dev --ignore-scripts

FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The rewind window (REWIND_DIR, var/rewind by default): a folder the app can write. Mount a volume
# there to keep the window across containers (deploy/README.md "Rewind").
RUN mkdir -p /app/var/rewind && chown -R node:node /app/var
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself (graceful shutdown within 10 s). The command is
# package.json's "start" (a test keeps them equal): a small V8 young generation (decision 020).
CMD ["node", "--max-semi-space-size=1", "dist/server/main.js"]
