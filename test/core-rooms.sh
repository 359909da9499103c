#!/usr/bin/env bash
# core-rooms.sh - the core's rooms (core/src/<room>/, docs/architecture.md)
# form no circle: the room graph is read from the #include lines of the
# code itself, an edge A -> B for each file of A that includes a file of B,
# and tsort fails on a loop. Usage: core-rooms.sh SOURCE_ROOT (TAP output).
set -u
root=${1:?usage: core-rooms.sh SOURCE_ROOT}
src=$root/core/src
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }

# "A B" for each include of a file in room B by a file in room A (A != B).
# An include is looked for beside the file first, then under core/src, as
# the compiler does; one found in neither (generated, or another
# project's) is no room's.
room_edges() {
    local dir=$1 f inc target room from
    (cd "$dir" && find . -mindepth 2 -name '*.[ch]' | sort) | while read -r f; do
        f=${f#./}
        from=${f%%/*}
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
            "$dir/$f" | while read -r inc; do
            if [ -e "$dir/$(dirname "$f")/$inc" ]; then
                target=$(realpath -m --relative-to="$dir" "$dir/$(dirname "$f")/$inc")
            elif [ -e "$dir/$inc" ]; then
                target=$(realpath -m --relative-to="$dir" "$dir/$inc")
            else
                continue
            fi
            case $target in */*) room=${target%%/*} ;; *) continue ;; esac
            case $room in ..) continue ;; esac
            [ "$room" != "$from" ] && echo "$from $room"
        done
    done | sort -u
}

# The rooms themselves: every folder of core/src, nothing loose beside them.
rooms=$(cd "$src" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | sort)
loose=$(cd "$src" && find . -maxdepth 1 -type f -name '*.[ch]' | sed 's|^\./||')
if [ "$(echo "$rooms" | wc -w)" -ge 7 ] && [ -z "$loose" ]; then
    ok "core/src is in rooms: $(echo $rooms)"
else
    not_ok "core/src has files outside a room: $(echo $loose). Fix: move each into the folder of its subsystem (docs/architecture.md)"
fi

edges=$(room_edges "$src")
if [ -n "$edges" ]; then
    ok "the rooms include each other ($(echo "$edges" | wc -l) edges)"
else
    not_ok "no include between rooms found: the check reads nothing. Fix: see test/core-rooms.sh's room_edges"
fi

# Each room's edges and the order they allow (what docs/architecture.md
# lists, lowest first).
err=$(mktemp)
if order=$(echo "$edges" | awk '{print $2, $1}' | tsort 2>"$err"); then
    ok "no circle between rooms; order: $(echo $order)"
else
    not_ok "a circle between rooms: $(grep -v 'input contains a loop' "$err" | sed 's/^tsort: //' | tr '\n' ' '). Fix: move the code that closes it into the lower room, or pass a function pointer up (docs/architecture.md)"
    echo "$edges" | sed 's/^/# /'
fi
rm -f "$err"

# The check itself finds a circle: two rooms that include each other.
fixture=$(mktemp -d)
mkdir -p "$fixture/a" "$fixture/b"
echo '#include "b/b.h"' >"$fixture/a/a.h"
echo '#include "a/a.h"' >"$fixture/b/b.h"
if ! room_edges "$fixture" | awk '{print $2, $1}' | tsort >/dev/null 2>&1; then
    ok "a circle in a fixture is found"
else
    not_ok "the check missed a circle between two rooms. Fix: test/core-rooms.sh's room_edges"
fi
rm -rf "$fixture"

echo "1..$n"
[ "$fails" -eq 0 ]
