#!/usr/bin/env bash
# A Docker engine that answers on the socket: reuse one, else start dockerd (installing docker.io first).
source "$(dirname "$0")/lib.sh"
# debootstrap builds the base image where no container registry answers.
if ! have debootstrap && [ "$(id -u)" = 0 ] && have apt-get; then step docker "installing debootstrap"; apt_install debootstrap; fi
if docker info >/dev/null 2>&1; then step docker "engine answers"; exit 0; fi
if ! have dockerd; then
  step docker "installing Debian's docker.io"
  apt_install docker.io
fi
step docker "starting dockerd (log: $ENVGAP_STATE/dockerd.log)"
# Detached: its own session, stdin /dev/null, output to the log, none of the caller's descriptors.
daemon "$ENVGAP_STATE/dockerd.log" dockerd
echo $! > "$ENVGAP_STATE/dockerd.pid"
t=$SECONDS
wait_for_daemon dockerd "$ENVGAP_STATE/dockerd.pid" "$ENVGAP_STATE/dockerd.log" 600 docker info
step docker "engine up after $((SECONDS - t))s"
