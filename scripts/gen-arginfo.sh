#!/usr/bin/env bash
# Generate stubs/redislock_arginfo.h from stubs/redislock.stub.php with PHP's
# gen_stub.php, offline.
#
#   gen-arginfo.sh [STUB]                 regenerate the arginfo header(s)
#   gen-arginfo.sh --check [STUB]         fail (exit 1, with a diff) if the
#                                         committed header is not up to date
#   gen-arginfo.sh --link-parser DIR      only make DIR/gen_stub.php find PHP-Parser
#
# gen_stub.php loads PHP-Parser from PHP-Parser-<version>/lib/ beside itself
# and downloads it when that is missing. We run a COPY of gen_stub.php in a
# temp dir where Debian's php-parser package is linked in that place; nothing
# under /usr is modified.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
parser_src=/usr/share/php/PhpParser   # Debian/Ubuntu package php-parser

die() { echo "gen-arginfo: $*" >&2; exit 1; }

find_gen_stub() {
    local prefix api f
    prefix=$(php-config --prefix 2>/dev/null || echo /usr)
    api=$(php-config --phpapi 2>/dev/null || true)
    for f in "$prefix/lib/php/$api/build/gen_stub.php" \
             "$prefix/lib/php/build/gen_stub.php" \
             /usr/lib/php/*/build/gen_stub.php \
             "$root/build/gen_stub.php"; do
        [[ -f $f ]] && { echo "$f"; return; }
    done
    die "gen_stub.php not found (install php-dev)"
}

# link_parser DIR: DIR holds gen_stub.php; create the PHP-Parser dir it expects.
link_parser() {
    local dir=$1 version
    [[ -d $parser_src ]] || die "$parser_src missing (install php-parser)"
    version=$(sed -n 's/^ *\$version = "\([0-9.]*\)";.*/\1/p' "$dir/gen_stub.php" | head -n1)
    [[ -n $version ]] || die "cannot read the PHP-Parser version from $dir/gen_stub.php"
    mkdir -p "$dir/PHP-Parser-$version/lib"
    ln -sfn "$parser_src" "$dir/PHP-Parser-$version/lib/PhpParser"
}

check=0
case ${1:-} in
    --link-parser) [[ -n ${2:-} ]] || die "--link-parser needs a directory"; link_parser "$2"; exit 0 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
esac
stub=${1:-$root/stubs/redislock.stub.php}
[[ -f $stub ]] || die "no stub file $stub"
stub_dir=$(cd "$(dirname "$stub")" && pwd)
name=$(basename "$stub" .stub.php)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$(find_gen_stub)" "$tmp/gen_stub.php"
link_parser "$tmp"
# Copy every stub of the directory: a stub may include another one.
mkdir "$tmp/stubs"
cp "$stub_dir"/*.stub.php "$tmp/stubs/"

# gen_stub.php reports parse errors on stdout and still exits 0, so success
# is judged by the "Saved" line.
out=$(php "$tmp/gen_stub.php" -f "$tmp/stubs/$name.stub.php" 2>&1) || true
grep -q "^Saved .*/${name}_arginfo.h" <<<"$out" || die "gen_stub.php failed:"$'\n'"$out"

status=0
for gen in "$tmp/stubs/${name}_arginfo.h" "$tmp/stubs/${name}_legacy_arginfo.h"; do
    [[ -f $gen ]] || continue
    dest=$stub_dir/$(basename "$gen")
    if ((check)); then
        if [[ ! -f $dest ]]; then
            echo "gen-arginfo: $dest is missing; run scripts/gen-arginfo.sh" >&2
            status=1
        elif ! diff -u --label "$dest (committed)" --label "$dest (from stub)" "$dest" "$gen"; then
            echo "gen-arginfo: $dest is out of date; run scripts/gen-arginfo.sh" >&2
            status=1
        fi
    elif ! cmp -s "$gen" "$dest"; then
        cp "$gen" "$dest"   # copied only when changed, so make sees no new mtime
        echo "gen-arginfo: wrote $dest"
    else
        echo "gen-arginfo: $dest up to date"
    fi
done
((check && status == 0)) && echo "gen-arginfo: $name arginfo up to date"
exit $status
