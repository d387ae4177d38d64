#!/usr/bin/env bash
# Rebuild examples/pyledger.bundle from the commit overlays in examples/pyledger-src/commits/.
#
# Each commits/NN-slug/ holds message.txt, date.txt (ISO 8601, used as author and
# committer date), files/ (full copies of the files the commit adds or changes) and
# optionally deleted.txt (paths the commit removes, one per line). Author, committer,
# dates, file modes and git config are all pinned, so the same overlays always give
# the same commit shas; the final sha is printed and must match repos.yaml. The bundle
# carries HEAD as well as main so that a plain `git clone` checks main out.
#
# Usage: examples/build-pyledger.sh [--verify] [--out PATH]
#   --verify   run `python3 -m pytest -q` after every commit (needs pytest; set PYTHON
#              to pick an interpreter) and fail if any commit's tests fail
#   --out      bundle path (default: examples/pyledger.bundle)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/pyledger-src/commits"
out="$here/pyledger.bundle"
verify=0
while [ $# -gt 0 ]; do
  case "$1" in
    --verify) verify=1 ;;
    --out) out="$2"; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
repo="$work/pyledger"

# Pin everything that could leak into the objects: no user/system config, fixed identity.
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Pyledger Dev" GIT_AUTHOR_EMAIL="dev@pyledger.example"
export GIT_COMMITTER_NAME="Pyledger Dev" GIT_COMMITTER_EMAIL="dev@pyledger.example"
export TZ=UTC LC_ALL=C
umask 022
mkdir -p "$HOME" "$repo"

git -C "$repo" init -q -b main
git -C "$repo" config core.autocrlf false
git -C "$repo" config core.fileMode true
git -C "$repo" config commit.gpgSign false

for dir in "$src"/*/; do
  name="$(basename "$dir")"
  [ -f "$dir/message.txt" ] && [ -f "$dir/date.txt" ] || { echo "$name: needs message.txt and date.txt" >&2; exit 1; }
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
      echo "$name: tests fail" >&2
      exit 1
    fi
    find "$repo" -name __pycache__ -type d -prune -exec rm -rf {} +
    echo "$name: $(tail -n 1 "$work/pytest.log")"
  fi
done

git -C "$repo" bundle create -q "$work/pyledger.bundle" HEAD main
git -C "$repo" bundle verify -q "$work/pyledger.bundle" >/dev/null 2>&1
mv "$work/pyledger.bundle" "$out"
git -C "$repo" log --format='%h %ad %s' --date=short main
echo "final commit: $(git -C "$repo" rev-parse main)"
