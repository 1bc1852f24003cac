#!/usr/bin/env bash
# Writes package.xml (the PECL package description) from the files git
# tracks, so that no shipped file is ever left out of it.
#   package-xml.sh           rewrite package.xml
#   package-xml.sh --check   fail when package.xml is not what it would write
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^#define PHP_REDISLOCK_VERSION "\(.*\)"/\1/p' ext/php_redislock.h)
# The release date is the day the version last changed (not HEAD's day, which
# would make every commit on a later day leave package.xml out of date).
date=$(git log -1 --format=%cs -G"define PHP_REDISLOCK_VERSION" -- ext/php_redislock.h 2>/dev/null)
[[ -n $date ]] || date=$(date +%F)

role_of() {
    case "$1" in
        tests/*) echo test ;;
        bridge/bin/*) echo script ;;   # the redislock command, installed in PEAR's bin_dir
        README.md|CHANGELOG.md|CONTRIBUTING.md|LICENSE|DESIGN.md|docs/*) echo doc ;;
        *) echo src ;;
    esac
}

# What a pecl user needs to build, test and read; not CI, benchmarks or dev scripts.
shipped() {
    git ls-files config.m4 src ext stubs tests bridge/bin README.md CHANGELOG.md CONTRIBUTING.md LICENSE DESIGN.md docs | sort
}

render() {
    cat <<XML
<?xml version="1.0" encoding="UTF-8"?>
<package packagerversion="1.10.13" version="2.0" xmlns="http://pear.php.net/dtd/package-2.0"
    xmlns:tasks="http://pear.php.net/dtd/tasks-1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://pear.php.net/dtd/tasks-1.0 http://pear.php.net/dtd/tasks-1.0.xsd http://pear.php.net/dtd/package-2.0 http://pear.php.net/dtd/package-2.0.xsd">
 <name>redislock</name>
 <channel>pecl.php.net</channel>
 <summary>Distributed locks over Redis: RedisLock (one node) and RedLock (a quorum), in C on hiredis</summary>
 <description>Native Redis locks for PHP: SET NX PX with atomic Lua release on one node, and the Redlock
algorithm over N independent nodes asked all at once. Persistent connections per worker that
survive fork, restart and CLIENT KILL; locks released after a fatal error.</description>
 <lead>
  <name>redislock developers</name>
  <user>redislock</user>
  <email>redislock@php.net</email>
  <active>yes</active>
 </lead>
 <date>$date</date>
 <version>
  <release>$version</release>
  <api>$version</api>
 </version>
 <stability>
  <release>beta</release>
  <api>beta</api>
 </stability>
 <license uri="https://opensource.org/licenses/MIT">MIT</license>
 <notes>See README.md.</notes>
 <contents>
  <dir name="/">
XML
    while read -r f; do
        printf '   <file name="%s" role="%s"/>\n' "$f" "$(role_of "$f")"
    done < <(shipped)
    cat <<XML
  </dir>
 </contents>
 <dependencies>
  <required>
   <php>
    <min>8.1.0</min>
   </php>
   <pearinstaller>
    <min>1.10.0</min>
   </pearinstaller>
  </required>
 </dependencies>
 <providesextension>redislock</providesextension>
 <extsrcrelease>
  <configureoption name="with-hiredis" default="yes" prompt="hiredis install prefix (yes: find with pkg-config)"/>
 </extsrcrelease>
</package>
XML
}

if [[ ${1:-} == --check ]]; then
    if ! diff -u package.xml <(render); then
        echo "package.xml is out of date: run scripts/package-xml.sh" >&2
        exit 1
    fi
else
    render > package.xml
fi
