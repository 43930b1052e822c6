# syntax=docker/dockerfile:1
# Build stage: install everything, compile TypeScript.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
COPY scripts/build-console.mjs scripts/build-info.mjs ./scripts/
# There is no .git in the image: pass the commit (and optionally the time) to /v1/health with
# `docker build --build-arg NOTIFYD_COMMIT=$(git rev-parse HEAD) --build-arg NOTIFYD_BUILT_AT=$(date +%s)`.
ARG NOTIFYD_COMMIT=""
ARG NOTIFYD_BUILT_AT=""
RUN npm run build

# Runtime stage: production dependencies and the compiled output only, as a non-root user.
# Run it with DATABASE_URL, ADMIN_API_KEY and JWT_SECRET: a start with a database and no
# JWT_SECRET is refused (exit 78, the message names the variable and how to make one).
FROM node:24-slim
ENV NODE_ENV=production PORT=3400
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The inbox web component is plain JavaScript served as is (src/inbox/web/notifyd-inbox.js).
COPY --from=build /app/src/inbox/web ./src/inbox/web
USER node
EXPOSE 3400
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3400)+'/v1/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve"]
