#!/bin/sh
# The compiler launcher of mstage_add_executable(): CMake runs
#   sh mstage-launch.sh <mstage++> <the project's c++> <flags...>
# and mstage++ compiles in place of the project's compiler.
mstage=$1
shift 2
exec "$mstage" "$@"
