#!/usr/bin/env bash
# Installs the Debian packages the build needs, where they are missing (idempotent). The CUDA
# toolkit itself (nvcc is not needed: NVRTC, cuBLAS and the runtime) must be in /usr/local/cuda.
set -euo pipefail
packages=(cmake g++ make libsqlite3-dev libspdlog-dev catch2 libcli11-dev nlohmann-json3-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "install_deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -d /usr/local/cuda/include ] || ! ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "install_deps: the CUDA toolkit (with NVRTC and cuBLAS) is expected in /usr/local/cuda" >&2
  exit 1
fi
