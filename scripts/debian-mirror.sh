#!/usr/bin/env bash
# Print the Debian mirror this machine's apt already uses, so that no script
# of the project names a registry host of its own.
#
#   scripts/debian-mirror.sh [debian|debian-security]     (default: debian)
#
# debian:          the URI of the first Debian entry for a release suite
#                  (bookworm, bookworm-updates, sid, ...);
# debian-security: the URI of the first entry for a -security suite.
# Read from /etc/apt/sources.list and /etc/apt/sources.list.d/*.list (one-line
# format) and *.sources (deb822), in the order apt reads them; an entry is
# Debian's when its suite is a Debian codename or alias and it has component
# main (third-party repositories name other suites or components).
# REDISLOCK_DEBIAN_MIRROR and REDISLOCK_DEBIAN_SECURITY_MIRROR override.
# REDISLOCK_APT_SOURCES_DIR=DIR reads DIR/sources.list and DIR/sources.list.d
# instead of /etc/apt (the helper's own test). Exits 1, saying why on stderr,
# when no entry fits.
set -euo pipefail

kind=${1:-debian}
case $kind in
    debian) override=${REDISLOCK_DEBIAN_MIRROR:-} ;;
    debian-security) override=${REDISLOCK_DEBIAN_SECURITY_MIRROR:-} ;;
    *) echo "debian-mirror: usage: debian-mirror.sh [debian|debian-security]" >&2; exit 2 ;;
esac
if [[ -n $override ]]; then
    echo "${override%/}"
    exit 0
fi

etc=${REDISLOCK_APT_SOURCES_DIR:-/etc/apt}
parts=()
[[ -f $etc/sources.list ]] && parts+=("$etc/sources.list")
# then sources.list.d, in name order whatever the extension, as apt reads it
for f in "$etc"/sources.list.d/*; do
    [[ -f $f && ( $f == *.list || $f == *.sources ) ]] && parts+=("$f")
done
((${#parts[@]})) || { echo "debian-mirror: no apt sources in $etc" >&2; exit 1; }

# Every entry as "URI SUITE COMPONENTS...", one per (URI, suite) pair.
entries() {
    local f
    for f in "${parts[@]}"; do
        if [[ $f == *.sources ]]; then
            # deb822: stanzas separated by blank lines; fields may continue on
            # indented lines; "Enabled: no" turns a stanza off
            awk '
                function flush() {
                    if (uris != "" && suites != "" && types ~ /(^| )deb(-src)?( |$)/ && tolower(enabled) != "no") {
                        nu = split(uris, u, " "); ns = split(suites, s, " ")
                        for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print u[i], s[j], comps
                    }
                    uris = suites = comps = types = enabled = ""; field = ""
                }
                /^#/ { next }
                /^[ \t]*$/ { flush(); next }
                /^[ \t]/ { v = $0; sub(/^[ \t]+/, "", v); val[field] = val[field] " " v; assign(); next }
                {
                    field = tolower($0); sub(/:.*/, "", field)
                    v = $0; sub(/^[^:]*:[ \t]*/, "", v); val[field] = v; assign()
                }
                function assign() {
                    if (field == "uris") uris = val[field]
                    else if (field == "suites") suites = val[field]
                    else if (field == "components") comps = val[field]
                    else if (field == "types") types = val[field]
                    else if (field == "enabled") enabled = val[field]
                }
                END { flush() }' "$f"
        else
            # one-line: deb [options] URI SUITE COMPONENT...
            sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" || $1 == "deb-src" {
                line = $2 " " $3; for (i = 4; i <= NF; i++) line = line " " $i; print line }'
        fi
    done
}

codenames='buster|bullseye|bookworm|trixie|forky|duke|sid|experimental|oldoldstable|oldstable|stable|testing|unstable'
while read -r uri suite comps; do
    [[ " $comps " == *" main "* ]] || continue
    base=${suite%%[-/]*}
    [[ $base =~ ^($codenames)$ ]] || continue
    is_security=0
    [[ $suite == *-security || $suite == */updates ]] && is_security=1
    if { [[ $kind == debian-security ]] && ((is_security)); } || { [[ $kind == debian ]] && ((!is_security)); }; then
        echo "${uri%/}"
        exit 0
    fi
done < <(entries)
echo "debian-mirror: no $kind entry in the apt sources of $etc (set REDISLOCK_$(tr a-z- A-Z_ <<<"$kind")_MIRROR)" >&2
exit 1
