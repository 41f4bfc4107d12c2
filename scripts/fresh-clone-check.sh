#!/usr/bin/env bash
# The README's commands on a fresh clone, with this machine's Chromium hidden, as on a new machine:
#
#   1. clones the committed HEAD of this repository into a temporary folder;
#   2. runs the README's `npm install && npm run demo` there;
#   3. shows the browser finder (scripts/find-chromium.mjs) with every browser hidden
#      (A2A_CHROMIUM_SEARCH_PATH names an empty folder, so the finder sees no chromium,
#      chromium-browser or google-chrome): as a user who is not root it stops with the one command
#      to run;
#   4. runs the README's `npm test` with the browsers hidden: as root with apt-get it installs
#      Debian's chromium itself (on a machine that already has the package apt-get says so and
#      changes nothing), then runs the browser test, whose checks are printed;
#   5. checks that `npm test` left the clone's working tree as it found it.
#
# Nothing is uninstalled from this machine. Usage: scripts/fresh-clone-check.sh [--keep]
# (--keep leaves the clone and the log in place). Exit status 0 when every step did what it should.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
keep=false
[[ "${1:-}" == "--keep" ]] && keep=true
work="$(mktemp -d /tmp/a2a-fresh-clone-XXXXXX)"
chmod 755 "$work"
clone="$work/clone"
hidden="$work/no-browsers-here"
mkdir -p "$hidden"
failures=0

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
bad() { printf 'FAILED: %s\n' "$*"; failures=$((failures + 1)); }
cleanup() { if $keep; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

say "1. git clone (HEAD $(git -C "$repo" rev-parse --short HEAD)) into $clone"
git clone --quiet --no-local "$repo" "$clone" || { bad "git clone"; exit 1; }
cd "$clone" || exit 1

say "2. npm install && npm run demo"
if npm install --no-audit --no-fund && npm run demo; then echo "(demo passed)"; else bad "npm install && npm run demo"; fi

say "3. the finder with the browsers hidden, as a user who is not root"
if [[ "$(id -u)" -eq 0 ]]; then
	if command -v setpriv >/dev/null; then
		out="$(A2A_CHROMIUM_SEARCH_PATH="$hidden" setpriv --reuid=65534 --regid=65534 --clear-groups node scripts/find-chromium.mjs 2>&1)"
		status=$?
	else
		out="setpriv is missing: skipped"
		status=1
	fi
else
	out="$(A2A_CHROMIUM_SEARCH_PATH="$hidden" node scripts/find-chromium.mjs 2>&1)"
	status=$?
fi
printf '%s\n(exit status %s)\n' "$out" "$status"
[[ $status -eq 1 && ( "$out" == *"apt-get install -y --no-install-recommends chromium"* || "$out" == *"package manager"* ) ]] || bad "the finder did not stop with the command to run"

say "4. npm test with the browsers hidden (A2A_CHROMIUM_SEARCH_PATH=$hidden)"
before="$(git status --porcelain)"
A2A_CHROMIUM_SEARCH_PATH="$hidden" CHROME_PATH= npm test 2>&1 | tee "$work/npm-test.log"
test_status=${PIPESTATUS[0]}
echo "(npm test exit status $test_status)"
[[ $test_status -eq 0 ]] || bad "npm test"
if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null; then
	grep -q '^\$ apt-get install -y --no-install-recommends chromium$' "$work/npm-test.log" || bad "npm test did not run apt-get install chromium"
fi
grep -qE '^✔ browser test: [0-9]+ passed, 0 failed' "$work/npm-test.log" || bad "the browser test's checks did not all run and pass"

say "5. the working tree after npm test"
after="$(git status --porcelain)"
if [[ "$before" == "$after" ]]; then echo "unchanged by npm test"; else bad "npm test changed the working tree:"; diff <(echo "$before") <(echo "$after"); fi

say "summary"
grep -E '^(Chromium:|No Chromium|\$ apt-get)' "$work/npm-test.log"
tail -n 12 "$work/npm-test.log"
if [[ $failures -eq 0 ]]; then echo "fresh clone: every step did what it should"; else echo "fresh clone: $failures step(s) failed"; fi
[[ $failures -eq 0 ]]
