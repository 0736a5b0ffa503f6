#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The two layers stay apart: no file of the module (model/, helper/) includes the runner
# (examples/runner/), and no public header of the module (those ns3/ddnn-module.h includes,
# as CMakeLists.txt lists them) names a type or function the runner declares.
# Usage: check-module-without-runner.sh SOURCE_DIR PUBLIC_HEADER...
set -eu
source_dir=$1
shift
status=0

if grep -nE '#include *"(runner/|[./]*examples/)' "$source_dir"/model/* "$source_dir"/helper/*; then
    echo "the module includes the runner (above)"
    status=1
fi

# The runner's headers are its own, not ns-3's: nothing includes them as ns3/NAME.h (which
# only a stale copy in a build folder could satisfy).
for header in "$source_dir"/examples/runner/*.h; do
    name=$(basename "$header")
    if grep -rn "#include *\"ns3/$name\"" "$source_dir"/model "$source_dir"/helper \
        "$source_dir"/examples "$source_dir"/test; then
        echo "the runner's $name is included as an ns-3 header (above)"
        status=1
    fi
done

# The runner's own names: its types and the functions its headers declare at the top level
# (not forward declarations of the module's classes).
names=$(sed -nE 's/^(struct|class) ([A-Za-z0-9_]+)[^;]*$/\2/p; s/^[A-Za-z].* ([A-Z][A-Za-z0-9_]*)\(.*/\1/p' \
    "$source_dir"/examples/runner/*.h | sort -u)
[ -n "$names" ] || { echo "no name found in $source_dir/examples/runner/*.h"; exit 1; }
for name in $names; do
    if grep -nw -- "$name" "$@"; then
        echo "the module's public header(s) above name the runner's $name"
        status=1
    fi
done
[ $status -eq 0 ] && echo "module without runner: $(echo $names | wc -w) runner names, none in $# public headers"
exit $status
