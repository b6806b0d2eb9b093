# One image for every Tiendita process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY libs/eventsourcing/package.json libs/eventsourcing/
COPY libs/service-kit/package.json libs/service-kit/
COPY libs/ai/package.json libs/ai/
COPY services/identity/package.json services/identity/
COPY services/catalog/package.json services/catalog/
COPY services/ordering/package.json services/ordering/
COPY services/inventory/package.json services/inventory/
COPY services/reporting/package.json services/reporting/
COPY gateway/package.json gateway/
COPY web/package.json web/
RUN npm install --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --force

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "gateway/dist/main.js"]
