#!/usr/bin/env bash
# Installs the Debian packages the build needs, where they are missing (idempotent). The CUDA
# toolkit itself (nvcc is not needed: NVRTC, cuBLAS and the runtime) must be in /usr/local/cuda.
set -euo pipefail
packages=(cmake g++ make libsqlite3-dev libspdlog-dev catch2 libcli11-dev nlohmann-json3-dev)
# The fuzz test (tests/fuzz) needs clang 15 or later with its libFuzzer runtime; where these are
# not packaged the test prints SKIPPED, so they are installed only where apt offers them.
optional_packages=(clang-16 libclang-rt-16-dev)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
updated=0
apt_update() {
  if ((!updated)); then
    $sudo_cmd apt-get update -qq
    updated=1
  fi
}
missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "install_deps: installing ${missing[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
missing=()
for package in "${optional_packages[@]}"; do
  installed "$package" || missing+=("$package")
done
if ((${#missing[@]})); then
  apt_update
  available=()
  for package in "${missing[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then available+=("$package"); fi
  done
  if ((${#available[@]} == ${#missing[@]})); then
    echo "install_deps: installing ${available[*]} (for the fuzz test)"
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${available[@]}" >/dev/null ||
      echo "install_deps: could not install ${available[*]}; the fuzz test will be skipped" >&2
  else
    echo "install_deps: ${missing[*]} not offered by apt here; the fuzz test will be skipped" >&2
  fi
fi
# The Python package (python/) needs pybind11 for the interpreter on PATH: from PyPI, else
# Debian's. Without it the package and its tests are left out (the build says so).
if command -v python3 >/dev/null && ! python3 -m pybind11 --cmakedir >/dev/null 2>&1; then
  echo "install_deps: installing pybind11 (pip) for the Python package"
  if ! python3 -m pip install --quiet --root-user-action=ignore "pybind11>=2.12" 2>/dev/null; then
    apt_update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq pybind11-dev python3-dev >/dev/null ||
      echo "install_deps: no pybind11; the Python package will not be built" >&2
  fi
fi
if [ ! -d /usr/local/cuda/include ] || ! ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "install_deps: the CUDA toolkit (with NVRTC and cuBLAS) is expected in /usr/local/cuda" >&2
  exit 1
fi
