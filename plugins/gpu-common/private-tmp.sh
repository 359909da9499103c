#!/bin/sh
# private-tmp.sh DIR CMD... - run a compiler with TMPDIR set to a fresh
# directory under DIR (inside the build tree), removed afterwards, so
# what it leaves behind (hipcc leaves gk_<kernel>-XXXXXX folders, two per
# compile) never reaches /tmp. Each run gets its own directory: parallel
# compiles do not share one.
set -u
base=$1
shift
mkdir -p "$base" || exit 1
tmp=$(mktemp -d "$base/tmp.XXXXXX") || exit 1
TMPDIR=$tmp TMP=$tmp TEMP=$tmp "$@"
rc=$?
rm -rf "$tmp"
exit $rc
