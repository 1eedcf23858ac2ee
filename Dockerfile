# syntax=docker/dockerfile:1
# Multi-stage image: build with dev dependencies, run with production ones only.
FROM node:20-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

FROM base AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN npm ci --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev \
  # onnxruntime-node ships its binaries for every platform: only this one's is kept
  && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -path "*/linux" -exec rm -rf {} + \
  && find node_modules/onnxruntime-node/bin/*/linux -mindepth 1 -maxdepth 1 ! -name "$(node -p process.arch)" -exec rm -rf {} +

FROM base AS run
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core sqlite3 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/app ./app
ENV PORT=8080 HOST=0.0.0.0 DATABASE_URL=file:/data/pindex.db
# image decoding threads each keep a glibc memory pool; two pools keep the peak lower, and buffers
# of 32 KB or more mapped on their own go back to the system when freed (see README, "Memory")
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768
EXPOSE 8080
CMD ["npm", "start"]
