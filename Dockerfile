# syntax=docker/dockerfile:1
#
# One image for every process of the control plane; the command picks which:
#   docker run IMAGE gateway | nvcf | icms | nvca-status | nvct | agent | nvca-webhook
#   docker run IMAGE migrate up          (a Job before a rollout: `migrate status`, `migrate goto V --expect V0 --keyspace K`)
#   docker run IMAGE preflight | probe --url URL --token T
#   docker run IMAGE streams ensure      (a Job before a rollout: every NATS stream of this release created or updated)
#   docker run -v /backups:/backups IMAGE backup /backups/DIR | restore /backups/DIR   (before a migration; docs/deploy.md#backups)
# Configuration is the environment (docs/configuration.md). Production runs Node 22: package.json
# says `>=20.19` only because development and the tests run on the Node 20 of the build machines.
# It runs as uid 10001 with a read-only root filesystem (it writes nothing; mount an emptyDir on
# /tmp if a tool needs scratch space). test/e2e/image.real.test.ts performs these same stages
# without Docker (the same scripts/image-files.ts, the same npm ci) and starts every service.

ARG NODE_IMAGE=node:22-bookworm-slim

# --- what npm ci reads, alone, so the dependency layers stay cached while sources change
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN node --experimental-strip-types --no-warnings scripts/image-files.ts manifests /out

# --- build: every dependency (TypeScript and Vite included), then tsc -b into each package's dist/
#     and Vite's build of the IDE and the console into console/dist/web (the gateway serves it)
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY --from=manifests /out/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && node --experimental-strip-types --no-warnings scripts/image-files.ts runtime /stage

# --- production dependencies only: no TypeScript, no tsx, no test tooling, no install scripts
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /out/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# nothing here runs a package manager: drop them (size, and what a compromised process could use)
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /usr/local/bin/npm /usr/local/bin/npx \
      /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --gid 10001 nvcf \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin nvcf
COPY --from=deps /app/ ./
COPY --from=build /stage/ ./
USER 10001:10001
# gateway 4000 (metrics 9464 on METRICS_HOST), nvcf 4001, icms 4002, nvca-status 4003, nvct 4004, agent 8080,
# nvca-webhook 8443 (HTTPS): each sets PORT
EXPOSE 4000 4001 4002 4003 4004 8080 8443 9464
ENTRYPOINT ["node", "bin/nvcf.js"]
CMD ["gateway"]
