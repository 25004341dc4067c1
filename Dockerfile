# Keel in a container: Node 20, git, ripgrep and bubblewrap, for Kubernetes Jobs, CI runners or any host that runs
# images (docs/container.md). Build: docker build -t keel . ; run: docker run --rm -v "$PWD:/workspace" keel run -p "…"
FROM node:20-slim AS build
WORKDIR /opt/keel
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build also makes the start-up code cache, for this image's Node.
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
# safe.directory: a mounted or cloned workspace belongs to another uid, and git must still read it.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ripgrep bubblewrap ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && git config --system --add safe.directory '*'
COPY --from=build /opt/keel/package.json /opt/keel/package.json
COPY --from=build /opt/keel/node_modules /opt/keel/node_modules
COPY --from=build /opt/keel/dist /opt/keel/dist
RUN ln -s /opt/keel/dist/keel.js /usr/local/bin/keel
USER node
WORKDIR /workspace
ENTRYPOINT ["keel"]
CMD ["--help"]
