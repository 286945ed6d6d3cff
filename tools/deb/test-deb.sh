#!/usr/bin/env bash
# Builds mstage's .deb with CPack and tests it in a clean Debian 12 root:
# the root is debootstrap's minimal bookworm (made once and kept as a
# tarball in $MSTAGE_DEB_CACHE, unpacked fresh for every run), with this
# machine's apt sources (they are where the LLVM/Clang 22 packages come
# from); apt installs the .deb and its dependencies there;
# examples/saxpy.cpp is compiled with /usr/bin/mstage++ and run on the CPU
# back end, and test/install's find_package project (with cmake, make and
# g++ from Debian) is built and run likewise, finding mstage under /usr.
# Needs root (debootstrap, chroot) and Debian's mirrors.
#
#   tools/deb/test-deb.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
cache=${MSTAGE_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mstage}
base=$cache/debian12-minbase.tar
mirror=http://deb.debian.org/debian

if [[ $(id -u) -ne 0 ]]; then
  echo "test-deb: error: run as root (debootstrap and chroot need it)" >&2
  exit 1
fi
if [[ ! -f $base ]]; then
  command -v debootstrap >/dev/null || {
    echo "test-deb: error: debootstrap is missing; apt-get install debootstrap" >&2
    exit 1
  }
  mkdir -p "$cache"
  echo "test-deb: debootstrap bookworm into $base (once)"
  tmp=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log"; echo "test-deb: error: debootstrap failed" >&2; exit 1; }
  tar -C "$tmp" -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$tmp"
fi

echo "test-deb: cpack in $build"
(cd "$build" && cpack -G DEB) >"$build/cpack.log" 2>&1 ||
  { cat "$build/cpack.log"; echo "test-deb: error: cpack failed" >&2; exit 1; }
deb=$(ls -t "$build"/package/mstage_*.deb | head -n 1)
echo "test-deb: $deb: $(du -h "$deb" | cut -f1)"
dpkg-deb -f "$deb" Package Version Depends

root=$(mktemp -d /tmp/mstage-debian12.XXXXXX)
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
# The machine's apt sources and settings, so that the root gets the same
# LLVM/Clang 22 packages.
rm -f "$root/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
[[ -f /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$root/etc/apt/"
cp /etc/apt/trusted.gpg.d/* "$root/etc/apt/trusted.gpg.d/" 2>/dev/null || true
for f in /etc/apt/apt.conf.d/99*; do [[ -f $f ]] && cp "$f" "$root/etc/apt/apt.conf.d/"; done
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"

cp "$deb" "$root/tmp/mstage.deb"
cp examples/saxpy.cpp "$root/tmp/"
cp -r test/install/Inputs/find-package "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
in_root apt-get update -q >"$build/deb-root-apt.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends /tmp/mstage.deb >>"$build/deb-root-apt.log" 2>&1 ||
  { tail -n 30 "$build/deb-root-apt.log"; echo "test-deb: error: apt-get install failed" >&2; exit 1; }
echo "test-deb: installed in a clean Debian 12 root: $(in_root dpkg-query -W -f='${Package} ${Version}, ' mstage clang-22 libllvm22)"
in_root sh -c 'cd /tmp && mstage++ --version && mstage++ -O2 saxpy.cpp -o saxpy &&
  ldd saxpy | grep mstage_rt && MSTAGE_BACKEND=cpu ./saxpy'
echo "test-deb: a find_package(mstage) project, with g++ as its compiler"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends cmake make g++ >>"$build/deb-root-apt.log" 2>&1 ||
  { tail -n 30 "$build/deb-root-apt.log"; echo "test-deb: error: apt-get install cmake failed" >&2; exit 1; }
in_root sh -c 'cmake -S /tmp/find-package -B /tmp/fp -DCMAKE_BUILD_TYPE=Release >/tmp/fp.log &&
  cmake --build /tmp/fp >>/tmp/fp.log && grep "found mstage" /tmp/fp.log &&
  MSTAGE_BACKEND=cpu /tmp/fp/app' ||
  { cat "$root/tmp/fp.log"; echo "test-deb: error: the find_package project failed" >&2; exit 1; }
echo "test-deb: PASS"
