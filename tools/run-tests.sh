#!/usr/bin/env bash
# Builds mstage (and its fuzzers, in build-fuzz) if needed, installs it into
# a temporary prefix and runs the whole test suite (lit) against that
# install, with the build tree's bin/ hidden, so that the suite shows what a
# user of the install gets (test/install also builds a find_package project
# there). The suite runs each fuzzer briefly. Tests that need a GPU are
# reported as unsupported on a machine without one. The last line is
# "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
tools/build.sh || { echo "0 passed, 1 failed (build)"; exit 1; }
# test/fuzz runs each fuzzer briefly; they need clang++-22's libFuzzer.
fuzzlib=$(/usr/lib/llvm-22/bin/clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a
if [[ -e $fuzzlib ]]; then
  fuzzlog=$(mktemp)
  tools/fuzz.sh --build >"$fuzzlog" 2>&1 ||
    { cat "$fuzzlog"; echo "0 passed, 1 failed (fuzzer build)"; exit 1; }
  rm -f "$fuzzlog"
else
  echo "run-tests: no libFuzzer (install libclang-rt-22-dev): the fuzzers do not run"
fi

prefix=$(mktemp -d /tmp/mstage-install.XXXXXX)
chmod 755 "$prefix" # as an install is: test/cache runs a program as another user
log=$(mktemp)
cleanup() {
  [[ -d build/bin.hidden ]] && mv build/bin.hidden build/bin
  rm -rf "$prefix" "$log"
}
trap cleanup EXIT
cmake --install build --prefix "$prefix" >"$log" 2>&1 ||
  { cat "$log"; echo "0 passed, 1 failed (install)"; exit 1; }
echo "run-tests: testing the install in $prefix (build/bin hidden)"
mv build/bin build/bin.hidden
/usr/lib/llvm-22/bin/lit -sv --param MSTAGE_INSTALL_PREFIX="$prefix" build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# lit pads the names to one width when several kinds are counted
# ("  Passed     : 235 (99.58%)").
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
[[ -n $unsupported ]] && echo "${unsupported} unsupported here (they need a GPU, or ptxas)"
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
