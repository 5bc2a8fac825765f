#!/usr/bin/env bash
# Installs what the test suite needs and is not a Rust crate. Idempotent; quick when done.
set -euo pipefail
need=()
command -v python3 >/dev/null || need+=(python3)
command -v cc >/dev/null || need+=(gcc)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
