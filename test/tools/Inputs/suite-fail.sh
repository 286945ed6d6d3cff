#!/bin/sh
# A GPU-suite stand-in that fails its check (run-suite-jobs.test).
echo "FAIL ${0##*/}: wrong"
exit 1
