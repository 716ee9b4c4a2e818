# energy as a container service: `energy ensure --every 1m --json` keeps the addresses given to `docker run`
# supplied, and serves /metrics and /healthz on port 9464 (README, "As a service"). Build:
#   docker build -t energy-ensure .
#   docker run -d --restart on-failure:5 --env-file energy.env -v energy-state:/state \
#     energy-ensure "$ADDR" --energy 65000 --hours 1 --max-total 20 --yes
# Add -p 127.0.0.1:9464:9464 to scrape it from the host (nothing is published unless asked).

# Build stage: the dev dependencies build dist/, and npm pack makes the package users install.
FROM node:22-alpine AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Without scripts: `prepare` would build before the sources are copied in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# npm pack runs `prepare` (npm run build) and packs only what the package ships.
RUN npm pack --silent --pack-destination /tmp && mv /tmp/energy-cli-*.tgz /tmp/energy-cli.tgz

# Run stage: Node, the packed tool and its one runtime dependency (decimal.js); no sources, no dev tools.
FROM node:22-alpine
COPY --from=build /tmp/energy-cli.tgz /tmp/energy-cli.tgz
RUN npm install --global --no-audit --no-fund /tmp/energy-cli.tgz \
  && rm /tmp/energy-cli.tgz \
  && npm cache clean --force \
  && mkdir -m 0700 /state \
  && chown node:node /state
# The order journal lives in /state: keep it on a volume, so that a new container never buys twice what
# the last one ordered just before it stopped. The folder must stay private (0700), as energy checks.
ENV ENERGY_STATE_DIR=/state
VOLUME /state
USER node
WORKDIR /home/node
# Metrics on every interface of the container (so that a Prometheus on its network can scrape them; the
# port is published only with -p): addresses, energy, balance and counts, no credentials.
EXPOSE 9464
# Unhealthy once 3 cycles in a row failed, or none ended for 3 intervals and a minute (README, "Watching the
# service"); Node's own fetch, so the image needs no curl or wget.
HEALTHCHECK --interval=1m --timeout=10s --start-period=2m \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) ends the service after the cycle in flight, exit 0; exec form, so energy gets it.
ENTRYPOINT ["energy", "ensure", "--every", "1m", "--json", "--metrics", "0.0.0.0:9464"]
