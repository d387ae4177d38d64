#!/usr/bin/env bash
# Rebuild examples/NAME.bundle from the commit overlays in examples/NAME-src/.
#
# NAME-src/author.txt holds the author and committer, "Full Name <email>", on one line.
# Each NAME-src/commits/NN-slug/ holds message.txt, date.txt (ISO 8601, used as author
# and committer date), files/ (full copies of the files the commit adds or changes) and
# optionally deleted.txt (paths the commit removes, one per line). Author, committer,
# dates, file modes and git config are all pinned, so the same overlays always give the
# same commit shas; the final sha is printed and must match repos.yaml. The pack is written
# with one thread, so the bundle file itself is byte-identical from one build to the next. The bundle
# carries HEAD as well as main so that a plain `git clone` checks main out.
#
# Usage: examples/build-example.sh NAME [--verify] [--out PATH]
#   NAME       an example with a NAME-src/ folder here (pyledger, pytext, jskit, tskit, pyrange)
#   --verify   run `python3 -m pytest -q` after every commit (Python examples; needs pytest; set PYTHON
#              to pick an interpreter) and fail if any commit's tests fail
#   --out      bundle path (default: examples/NAME.bundle)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage="usage: $0 NAME [--verify] [--out PATH]"
[ $# -gt 0 ] && [ "${1#-}" = "$1" ] || { echo "$usage" >&2; exit 2; }
name="$1"
shift
case "$name" in
  *[!A-Za-z0-9_-]*) echo "bad example name: $name (letters, digits, - and _ only)" >&2; exit 2 ;;
esac
src="$here/$name-src/commits"
[ -d "$src" ] || { echo "no example '$name': $here/$name-src/commits does not exist" >&2; exit 2; }
author_file="$here/$name-src/author.txt"
[ -f "$author_file" ] || { echo "$author_file is missing (one line: Full Name <email>)" >&2; exit 2; }
author="$(head -n 1 "$author_file")"
identity='^([^<>]*[^<>[:space:]])[[:space:]]+<([^<>[:space:]]+)>$'
if [[ ! "$author" =~ $identity ]]; then
  echo "$author_file: expected 'Full Name <email>', got '$author'" >&2
  exit 2
fi
author_name="${BASH_REMATCH[1]}"
author_email="${BASH_REMATCH[2]}"
out="$here/$name.bundle"
verify=0
while [ $# -gt 0 ]; do
  case "$1" in
    --verify) verify=1 ;;
    --out) [ $# -gt 1 ] || { echo "--out needs a path" >&2; exit 2; }; out="$2"; shift ;;
    *) echo "unknown argument: $1" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
repo="$work/$name"

# Pin everything that could leak into the objects: no user/system config, fixed identity.
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="$author_name" GIT_AUTHOR_EMAIL="$author_email"
export GIT_COMMITTER_NAME="$author_name" GIT_COMMITTER_EMAIL="$author_email"
export TZ=UTC LC_ALL=C
umask 022
mkdir -p "$HOME" "$repo"

git -C "$repo" init -q -b main
git -C "$repo" config core.autocrlf false
git -C "$repo" config core.fileMode true
git -C "$repo" config commit.gpgSign false

for dir in "$src"/*/; do
  commit="$(basename "$dir")"
  [ -f "$dir/message.txt" ] && [ -f "$dir/date.txt" ] || { echo "$commit: needs message.txt and date.txt" >&2; exit 1; }
  if [ -f "$dir/deleted.txt" ]; then
    while IFS= read -r path; do
      [ -n "$path" ] && git -C "$repo" rm -q -- "$path"
    done < "$dir/deleted.txt"
  fi
  if [ -d "$dir/files" ]; then
    cp -R "$dir/files/." "$repo/"
  fi
  # Modes are part of the tree hash: every file is a plain 0644 file.
  find "$repo" -path "$repo/.git" -prune -o -type f -exec chmod 0644 {} +
  git -C "$repo" add -A
  when="$(tr -d '\n' < "$dir/date.txt")"
  GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when" \
    git -C "$repo" commit -q --no-verify --cleanup=strip -F "$dir/message.txt"
  if [ "$verify" = 1 ]; then
    if ! (cd "$repo" && "${PYTHON:-python3}" -m pytest -q -p no:cacheprovider > "$work/pytest.log" 2>&1); then
      cat "$work/pytest.log" >&2
      echo "$commit: tests fail" >&2
      exit 1
    fi
    find "$repo" -name __pycache__ -type d -prune -exec rm -rf {} +
    echo "$commit: $(tail -n 1 "$work/pytest.log")"
  fi
done

git -C "$repo" -c pack.threads=1 bundle create -q "$work/$name.bundle" HEAD main
git -C "$repo" bundle verify -q "$work/$name.bundle" >/dev/null 2>&1
mv "$work/$name.bundle" "$out"
git -C "$repo" log --format='%h %ad %s' --date=short main
echo "final commit: $(git -C "$repo" rev-parse main)"
