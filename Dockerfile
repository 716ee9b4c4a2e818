# energy as a container service: `energy ensure --every 1m --json` keeps the addresses given to `docker run`
# supplied, and serves /metrics and the probes /livez and /readyz on port 9464 (docs/service.md, "In a
# container"). Build:
#   docker build -t energy-ensure .
# The API secret as a file, never an environment variable (`docker inspect` shows those), readable by the
# image's user (node, uid 1000) and nobody else: a bind mount keeps the host file's owner and mode.
#   install -m 0600 /dev/null api-secret && $EDITOR api-secret   # the secret alone
#   sudo chown 1000:1000 api-secret                               # the image's user reads it
#   docker run -d --restart on-failure:5 --name energy-ensure \
#     --mount type=bind,src="$PWD/api-secret",dst=/run/secrets/energy-api-secret,readonly \
#     -e ENERGY_BASE_URL -e ENERGY_API_KEY -e ENERGY_TRON_NODE -v energy-state:/state \
#     energy-ensure "$ADDR" --energy 65000 --hours 1 --max-total 20 --yes
# (Compose and Swarm `secrets:` mount it at the same path; Swarm's `uid: "1000"`, `mode: 0400` do the chown.)
# Add -p 127.0.0.1:9464:9464 to scrape it from the host (nothing is published unless asked).
#
# The base image is pinned to an exact Node and Alpine release. For a reproducible build pin it by digest
# too, with the digest your registry gives for that tag (`docker buildx imagetools inspect <tag>`):
#   docker build --build-arg NODE_IMAGE=node:22.17.1-alpine3.22@sha256:<digest> -t energy-ensure .
ARG NODE_IMAGE=node:22.17.1-alpine3.22

# Build stage: the dev dependencies, installed from the lockfile, build dist/; npm pack makes the package
# users install, unpacked here as the run stage takes it. Its CLI is one bundle carrying what it runs, so the
# package's node_modules are not needed: decimal.js, its one dependency, is the library's, never loaded by
# the CLI. Nothing is installed from the registry but what the lockfile names.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Without scripts: `prepare` would build before the sources are copied in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# npm pack runs `prepack` (npm run build) and packs only what the package ships.
RUN npm pack --silent --pack-destination /tmp \
  && tar -xzf /tmp/energy-cli-*.tgz -C /tmp \
  && mv /tmp/package /opt/energy-cli

# Run stage: Node and the packed tool; no sources, no dev tools, no npm install.
# tini is PID 1 (it reaps what a hook leaves behind: `curl &`); curl and jq are for --on-event hooks such as
# the one in docs/service.md. apk's packages are pinned to their version lines in this Alpine release
# (`=~`: the release's security revisions still install; an exact `-rN` fails once Alpine replaces it).
FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="energy-ensure" \
      org.opencontainers.image.description="energy ensure --every: keeps TRON addresses supplied with rented energy" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT"
RUN apk add --no-cache tini=~0.19 curl=~8.14 jq=~1.8
COPY --from=build /opt/energy-cli /opt/energy-cli
# The licence and the third-party notices of what the bundle carries (written by the build, shipped in the
# package), where a reader of the image looks; the SBOM stays in the package (dist/sbom.cdx.json).
RUN mkdir -p /usr/share/doc/energy-cli \
  && ln -s /opt/energy-cli/LICENSE /opt/energy-cli/dist/THIRD_PARTY_NOTICES.md /usr/share/doc/energy-cli/ \
  && ln -s /opt/energy-cli/bin/energy.js /usr/local/bin/energy \
  && mkdir -m 0700 /state \
  && chown node:node /state
# The order journal lives in /state: keep it on a volume, so that a new container never buys twice what
# the last one ordered just before it stopped. The folder must stay private (0700, owned by the node
# user, uid 1000), as energy checks: a bind mount from the host needs the same, e.g.
#   install -d -m 0700 -o 1000 -g 1000 /srv/energy-state   then   -v /srv/energy-state:/state
ENV ENERGY_STATE_DIR=/state
# Where the secret is read from when ENERGY_API_SECRET is not set: the file mounted as above.
ENV ENERGY_API_SECRET_FILE=/run/secrets/energy-api-secret
VOLUME /state
USER node
WORKDIR /home/node
# Metrics on every interface of the container (so that a Prometheus on its network can scrape them; the
# port is published only with -p): addresses, energy, balance and counts, no credentials.
EXPOSE 9464
# /livez: unhealthy once no cycle has ended for 3 intervals and a minute (a stuck process, which a restart
# cures); failing cycles and a full --max-spend window are /readyz's and the alerts' (docs/service.md,
# "Watching the service"). busybox's wget (about 1 MB, no Node started), with a time limit; any failure is
# exit 1, which Docker reads as unhealthy.
HEALTHCHECK --interval=1m --timeout=10s --start-period=2m \
  CMD ["/bin/sh", "-c", "wget -q -T 5 -O /dev/null http://127.0.0.1:9464/livez || exit 1"]
# SIGTERM (docker stop) reaches energy through tini and ends the service after the cycle in flight, exit 0.
# --disable-sigusr1 (Node 22.14+): SIGUSR1 never opens Node's inspector, from the first instant of the start.
ENTRYPOINT ["/sbin/tini", "--", "node", "--disable-sigusr1", "/usr/local/bin/energy", "ensure", "--every", "1m", "--json", "--metrics", "0.0.0.0:9464"]
