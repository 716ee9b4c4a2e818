# energy as a container service: `energy ensure --every 1m --json` keeps the addresses given to `docker run`
# supplied (README, "As a service"). Build: docker build -t energy-ensure .
#   docker run -d --restart on-failure:5 --env-file energy.env -v energy-state:/state \
#     energy-ensure "$ADDR" --energy 65000 --hours 1 --max-total 20 --yes

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
# No HEALTHCHECK yet: the service has no health endpoint to ask until `ensure --metrics` serves /healthz
# (issue 26); add one then, e.g. HEALTHCHECK CMD wget -qO- http://127.0.0.1:<port>/healthz.
# SIGTERM (docker stop) ends the service after the cycle in flight, exit 0; exec form, so energy gets it.
ENTRYPOINT ["energy", "ensure", "--every", "1m", "--json"]
