# Node 24 runs the TypeScript sources directly (type stripping), so the service has no build
# step; the web application (web/, its own package) is built in a stage of its own and only its
# static files are copied in. The project carries Node 24 as a devDependency for local runs; the
# image uses the base image's Node 24 instead, so dev dependencies are left out and install
# scripts (the root's `prepare`, which builds web/ on a developer's machine) skipped.
FROM node:24-slim AS web
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY . .
COPY --from=web /web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data PORT=8080
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=6 \
  CMD ["node", "-e", "fetch('http://localhost:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "src/main.ts"]
