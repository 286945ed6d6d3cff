#!/usr/bin/env bash
# Usage: tools/gpu/pack-compiler.sh [BUILD_DIR]
#
# Bundles clang-22, mstage++ and the headers that bench/mstage_stencil.cpp
# and the examples include into .gpu-pack/compiler/{llvm,rest}/, so that
# bench/compile_time.sh can run on the GPU machine, which has idle cores but
# no LLVM 22 (the build machine's 2 cores hide what the ahead-of-time code's
# threads cost in wall time). Layout of the archive:
#   llvm/bin/clang, llvm/lib/libLLVM.so.N, llvm/lib/libclang-cpp.so.N,
#   llvm/lib/clang/<N>/include   clang and its resource headers
#   syslib/                      the shared libraries clang needs that an
#                                Ubuntu 24.04 machine may lack
#   sysroot/                     the C and C++ headers the sources include
#                                (this machine's), for --sysroot, so that both
#                                compilers read the same headers there
#   mstage/                      mstage++, its plugin and include directory
# There, from the repository root:
#   mkdir -p /tmp/cc && tar xJf .gpu-pack/compiler/llvm/llvm.tar.xz -C /tmp/cc
#   (a later call, carrying .gpu-pack/compiler/rest, on the same machine)
#   tar xJf .gpu-pack/compiler/rest/rest.tar.xz -C /tmp/cc
#   LD_LIBRARY_PATH=/tmp/cc/syslib MSTAGE_CXX=/tmp/cc/llvm/bin/clang++ \
#     CLANGXX=/tmp/cc/llvm/bin/clang++ COMMON_FLAGS=--sysroot=/tmp/cc/sysroot \
#     bench/compile_time.sh /tmp/cc/mstage bench/mstage_stencil.cpp
set -euo pipefail

die() {
  echo "pack-compiler.sh: error: $*" >&2
  exit 1
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
build=$(cd "$build" && pwd)
[[ -x $build/bin/mstage++ ]] || die "no $build/bin/mstage++; build first"
clang=$(readlink -f "$(command -v clang++-22)") || die "no clang++-22"
llvm=$(dirname "$(dirname "$clang")")
stage=$repo/.gpu-pack/compiler-stage
out=$repo/.gpu-pack/compiler
rm -rf "$stage"
mkdir -p "$stage"/{llvm/bin,llvm/lib,syslib,sysroot,mstage/bin,mstage/lib/mstage}

cp "$clang" "$stage/llvm/bin/clang"
ln -s clang "$stage/llvm/bin/clang++"
res=$(cd "$llvm/lib/clang"/*/ && pwd)
mkdir -p "$stage/llvm/lib/clang/${res##*/}"
cp -a "$res/include" "$stage/llvm/lib/clang/${res##*/}/"
# The libraries clang loads, by the names it loads them (libLLVM once, not
# also as its other names), other than glibc's and the C++ runtime's; LLVM's
# beside clang, where its run path looks.
ldd "$clang" | awk '$3 ~ /^\// { print $1, $3 }' | while read -r name lib; do
  case $name in
  libc.so* | libm.so* | libstdc++* | libgcc_s* | ld-linux*) ;;
  libLLVM* | libclang-cpp*) cp -L "$lib" "$stage/llvm/lib/$name" ;;
  *) cp -L "$lib" "$stage/syslib/$name" ;;
  esac
done

# glibc's, Linux's and GCC's C++ headers (the ones a preprocessor run lists
# depend on the macros, -O2's among them), kept at their paths.
mkdir -p "$stage/sysroot/usr/include"
cp -a /usr/include/*.h /usr/include/x86_64-linux-gnu /usr/include/linux \
  /usr/include/asm-generic /usr/include/c++ "$stage/sysroot/usr/include/"
gcc=$(dirname "$(gcc -print-libgcc-file-name)")
mkdir -p "$stage/sysroot$gcc"
cp -a "$gcc/include" "$gcc"/crt*.o "$stage/sysroot$gcc/"

cp "$build/bin/mstage++" "$stage/mstage/bin/"
cp -L "$build/lib/mstage/MStagePlugin.so" "$stage/mstage/lib/mstage/"
cp -rL "$build/include" "$stage/mstage/include"
strip --strip-unneeded "$stage"/mstage/bin/* "$stage"/mstage/lib/mstage/*.so

# Two archives, as a call carries at most 64 MiB: libLLVM alone, then the
# rest; carry each in a call of its own, unpacking both into one folder.
rm -rf "$out"
mkdir -p "$out/llvm" "$out/rest"
(cd "$stage" && tar -cf - llvm/lib/libLLVM.so.*) | xz -T0 -6 >"$out/llvm/llvm.tar.xz"
rm "$stage"/llvm/lib/libLLVM.so.*
tar -C "$stage" -cf - . | xz -T0 -6 >"$out/rest/rest.tar.xz"
rm -rf "$stage"
du -m "$out"/*/*.tar.xz | sed 's/^/pack-compiler.sh: MiB /'
for a in "$out"/*/*.tar.xz; do
  (($(du -m "$a" | cut -f1) < 60)) || die "$a is over 60 MiB"
done
