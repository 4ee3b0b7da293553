# Production image: build with dev dependencies, run with production ones only.
# Node.js 24 LTS (README): every request costs 1.2-1.6x less CPU than on Node 20. Pinned to the 24.x that CI's
# Node 24 step runs (.ci/run, NODE24_VERSION): better-sqlite3 12.x is built here against that Node's own headers.
FROM node:24.18.1-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
# Exactly the locked versions (the lock holds every platform's optional packages); a lock npm ci refuses fails the build.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24.18.1-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATABASE_URL=file:/data/app.db UPLOAD_DIR=/data/uploads SKIP_BUILD_CHECK=1
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/server/index.js ./server/index.js
# A named volume mounted on /data/uploads starts with this folder's owner (node), so the app can write there.
RUN mkdir -p /data/uploads && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server/index.js"]
