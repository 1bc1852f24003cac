#!/usr/bin/env bash
# The layers of src/ include downward only, and no modules include each
# other in a circle. CI runs it (scripts/test-all.sh); it fails on either.
#   base < transport < engine < topology < lock   (then ext/, above them all)
# A module is a .c with its .h of the same name (or a lone .h or .c); module
# A depends on B when A's .c or .h includes B's .h. A file of a layer may
# include its own layer and the layers below it, never one above (ext/
# included from src/ counts as above). The unit tests (src/tests/) may
# include anything and are left out.
# Prints each upward include and each circle (the modules of one strongly
# connected component), then a count line; exit 1 when either count is > 0.
# It also checks ext/'s names: each file says its role (CONTRIBUTING.md,
# "Layout") and each .c has its one header.
set -euo pipefail
cd "$(dirname "$0")/.."

ext_bad=0
for f in ext/*.c; do
    base=${f#ext/}
    base=${base%.c}
    case $base in
        redislock) continue ;; # the module, beside php_redislock.h as PHP extensions are
        rl_module_* | rl_class_* | rl_method_* | rl_form_* | rl_object | rl_object_* | rl_pool) ;;
        *) echo "check-layers: ext/$base.c is named by no role (rl_module_, rl_class_, rl_method_, rl_form_, rl_object_)"; ext_bad=$((ext_bad + 1)) ;;
    esac
    [[ -f ext/$base.h ]] || { echo "check-layers: ext/$base.c has no header ext/$base.h"; ext_bad=$((ext_bad + 1)); }
done
((ext_bad == 0)) || { echo "check-layers: $ext_bad misnamed ext/ files"; exit 1; }

layers="base transport engine topology lock"

# One line per quoted include of a src/ file: FILE INCLUDED-PATH (resolved
# against the file's folder, ../ folded).
edges() {
    local f dir inc
    for f in src/*/*.c src/*/*.h; do
        case $f in src/tests/*) continue ;; esac
        dir=${f%/*}
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
            echo "$f $(realpath -m --relative-to=. "$dir/$inc")"
        done
    done
}

edges | awk -v layers="$layers" '
function layer_of(path,   parts) {
    split(path, parts, "/")
    if (parts[1] == "ext") return 99
    if (parts[1] != "src") return -1
    return (parts[2] in rank) ? rank[parts[2]] : -1
}
function module_of(path) { sub(/\.[ch]$/, "", path); return path }
# Tarjan: the strongly connected components of the module graph.
function visit(v,   i, w) {
    index_of[v] = low[v] = ++counter
    stack[++top] = v; on_stack[v] = 1
    for (i = 1; i <= nout[v]; i++) {
        w = out[v, i]
        if (!(w in index_of)) {
            visit(w)
            if (low[w] < low[v]) low[v] = low[w]
        } else if (on_stack[w] && index_of[w] < low[v]) {
            low[v] = index_of[w]
        }
    }
    if (low[v] == index_of[v]) {
        comp = ""; size = 0
        do {
            w = stack[top--]; on_stack[w] = 0
            comp = w (comp == "" ? "" : " ") comp; size++
        } while (w != v)
        if (size > 1) {
            printf "check-layers: circle: %s\n", comp
            circles++
        }
    }
}
BEGIN {
    n = split(layers, names, " ")
    for (i = 1; i <= n; i++) rank[names[i]] = i
}
{
    from = $1; to = $2
    lf = layer_of(from); lt = layer_of(to)
    if (lf < 0) { printf "check-layers: %s is in no known layer (add it to the list)\n", from; unknown++ }
    if (lt > lf) {
        printf "check-layers: upward include: %s includes %s\n", from, to
        upward++
    }
    a = module_of(from); b = module_of(to)
    nodes[a] = 1; nodes[b] = 1
    if (a != b && !((a, b) in seen)) {
        seen[a, b] = 1
        out[a, ++nout[a]] = b
    }
}
END {
    # sorted, so the output is the same from run to run
    m = 0
    for (v in nodes) order[++m] = v
    for (i = 2; i <= m; i++) {
        v = order[i]
        for (j = i - 1; j >= 1 && order[j] > v; j--) order[j + 1] = order[j]
        order[j + 1] = v
    }
    for (i = 1; i <= m; i++) if (!(order[i] in index_of)) visit(order[i])
    printf "check-layers: %d upward includes, %d circles, %d files outside the layers\n", upward, circles, unknown
    exit (upward + circles + unknown > 0) ? 1 : 0
}'
