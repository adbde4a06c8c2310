# syntax=docker/dockerfile:1
# Selfie Studio: one image for every role. By default one process serves and runs the jobs
# (ROLE=all) with one volume (/data); ROLE=web or ROLE=worker (or the command
# `node scripts/start.mjs --role=web|worker`) runs one side only. Multi-stage: build with dev
# dependencies, run with production dependencies only, as a non-root user.

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

# Production dependencies (better-sqlite3 compiles when no prebuilt binary fits).
FROM base AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

# Build with the dev dependencies.
FROM deps AS build
RUN npm install --include=dev --no-audit --no-fund
COPY . .
RUN npm run build

FROM base AS runtime
# Uploaded selfies (the originals) are removed after 30 days; the styles made from them stay.
ENV DATA_DIR=/data \
    PORT=3000 \
    TRUST_PROXY=1 \
    ORIGINALS_RETENTION_DAYS=30
# The volume is the server user's alone (the database, the stored files and the outbox inside are too).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --chown=node:node package.json ./
COPY --chown=node:node scripts ./scripts
# Sources for the operator commands (npm run user:create, user:reset-password, migrate), run by tsx.
COPY --chown=node:node tsconfig.json ./
COPY --chown=node:node app ./app
COPY --chown=node:node db ./db
USER node
VOLUME /data
EXPOSE 3000
# Liveness in every role: a worker listens on PORT too, for /healthz and /readyz only.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://localhost:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrates, makes sure the super admin exists (printing a generated password once), then serves
# and works as ROLE says.
CMD ["node", "scripts/start.mjs"]
