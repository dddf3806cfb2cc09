#!/usr/bin/env bash
# Installs the toolchains that test/services needs -- Go (builds nats-server, etcd and
# kube-apiserver for `services:up -- kubernetes`, and Helm for the charts' tests),
# a Java 17 JDK (runs Cassandra 5.0), Maven (resolves Cassandra's jars) and
# Debian's Chromium (the browser tests drive /usr/bin/chromium with playwright-core;
# test/services/chromium.ts installs it the same way on first use) and tmux (the CLI's
# live view is tested on a real pseudo-terminal, test/e2e/cli-tty.memory.test.ts) and zsh
# and fish (cli/test/completion.test.ts checks `nvcf completion` in them, skipped without) --
# via apt-get, and ONLY for the ones that are missing. A no-op when `go`, `java`,
# `mvn`, /usr/bin/chromium, `tmux`, `zsh` and `fish` are all there.
#
# Go caveat: Debian bookworm's apt `golang`/`golang-go` is Go 1.19, but the
# pinned nats-server (NATS_SERVER_VERSION in test/services/nats.ts) declares
# `go 1.26.0` in its go.mod, so `go install` will fail with apt's Go. 1.19
# also predates GOTOOLCHAIN auto-switching. Machines for this project ship Go
# 1.26 in /usr/local/go; if go is missing, we still install apt's golang (the
# best apt offers) and print a warning.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

# A Go in the standard tarball location that is only missing from PATH counts as present.
if ! have go && [ -x /usr/local/go/bin/go ]; then
  export PATH="/usr/local/go/bin:$PATH"
  echo "ci-prereqs: found /usr/local/go/bin/go (add /usr/local/go/bin to PATH)" >&2
fi

pkgs=()
have go || pkgs+=(golang)
have java || pkgs+=(openjdk-17-jdk-headless)
have mvn || pkgs+=(maven)
[ -x /usr/bin/chromium ] || pkgs+=(chromium)
have tmux || pkgs+=(tmux)
have zsh || pkgs+=(zsh)
have fish || pkgs+=(fish)

if [ "${#pkgs[@]}" -eq 0 ]; then
  echo "ci-prereqs: go, java, mvn, chromium, tmux, zsh and fish already present; nothing to install" >&2
else
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "ci-prereqs: installing ${pkgs[*]} via apt-get" >&2
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${pkgs[@]}"
fi

# Report versions and warn about a Go too old for the pinned nats-server.
go_minor="$(go env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p')"
if [ -n "$go_minor" ] && [ "$go_minor" -lt 26 ]; then
  echo "ci-prereqs: WARNING: $(go env GOVERSION) is older than go1.26, which nats-server needs" >&2
fi
echo "ci-prereqs: $(go env GOVERSION 2>/dev/null || echo 'go ?'), $(java -version 2>&1 | head -n1), $(mvn -v 2>/dev/null | head -n1 | sed 's/\x1b\[[0-9;]*m//g'), $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium ?'), $(tmux -V 2>/dev/null || echo 'tmux ?')" >&2
