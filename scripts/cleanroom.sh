#!/usr/bin/env bash
# Proves the README's two commands on a Debian 12 that has never seen the project: bootstraps a
# minimal Debian 12 (debootstrap --variant=minbase) into a folder, copies a clean clone of this
# repository's committed state into it, and runs scripts/demo.sh, then scripts/test.sh, inside it
# with chroot. Prints the time of each step; the logs stay in the folder.
#   scripts/cleanroom.sh [--dir DIR] [--demo-only] [--keep]
#     --dir DIR     where the system goes (default /var/tmp/openge-cleanroom; emptied first)
#     --demo-only   run scripts/demo.sh only (scripts/test.sh takes about half an hour)
#     --keep        leave the folder in place afterwards (it is removed by default)
#   OPENGE_DEBIAN_MIRROR   the Debian mirror (default http://deb.debian.org/debian)
# Needs root (debootstrap and chroot) and network access to the mirror; installs debootstrap on
# the host when it is missing.
set -euo pipefail

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; }

dir=/var/tmp/openge-cleanroom
demo_only=0
keep=0
while (($# > 0)); do
  case "$1" in
    --dir)
      [[ $# -ge 2 ]] || { echo "cleanroom.sh: --dir needs a folder" >&2; exit 2; }
      dir="$2"
      shift
      ;;
    --demo-only) demo_only=1 ;;
    --keep) keep=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "cleanroom.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

if ((EUID != 0)); then
  echo "cleanroom.sh: debootstrap and chroot need root; run it as root (or with sudo)" >&2
  exit 1
fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
mirror="${OPENGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
case "$dir" in
  / | /usr | /var | /tmp | /root | /home) echo "cleanroom.sh: refusing --dir $dir" >&2; exit 2 ;;
esac

mounted=()
cleanup() {
  local m
  for ((m = ${#mounted[@]} - 1; m >= 0; m--)); do umount -l "${mounted[m]}" 2>/dev/null || true; done
  if ((keep == 0)); then rm -rf --one-file-system "$dir"; fi
}
trap cleanup EXIT

timings=()
step() {  # step <name> <command...>: runs the command, records its wall time
  local name="$1" start end
  shift
  printf '\n==== cleanroom: %s ====\n' "$name"
  start=$(date +%s)
  "$@"
  end=$(date +%s)
  timings+=("$(printf '%-34s %5d s' "$name" $((end - start)))")
}

if ! command -v debootstrap >/dev/null 2>&1; then
  echo "cleanroom.sh: installing debootstrap on the host"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
fi

rm -rf --one-file-system "$dir"
mkdir -p "$dir"
step "debootstrap (minbase bookworm)" \
  debootstrap --variant=minbase bookworm "$dir" "$mirror"

# The same suites as a standard install: security and point-release updates.
cat > "$dir/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$dir/etc/resolv.conf"
for m in proc sys dev dev/pts; do
  mkdir -p "$dir/$m"
  case "$m" in
    proc) mount -t proc proc "$dir/proc" ;;
    sys) mount -t sysfs sys "$dir/sys" ;;
    *) mount --bind "/$m" "$dir/$m" ;;
  esac
  mounted+=("$dir/$m")
done

# A clean copy of the committed state: what a newcomer gets from `git clone`.
step "copy a clean clone" git clone --quiet --no-local "$repo" "$dir/root/openge"

in_room() {  # in_room <log name> <command>: runs a shell command in the clone, inside the room
  chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb /bin/bash -c "cd /root/openge && $2" > "$dir/root/$1.log" 2>&1 ||
    { tail -n 40 "$dir/root/$1.log"; echo "cleanroom.sh: '$2' failed in the clean room" \
      "(log: $dir/root/$1.log; use --keep to look)" >&2; return 1; }
  tail -n 15 "$dir/root/$1.log"
}

step "scripts/demo.sh" in_room demo scripts/demo.sh
if ((demo_only == 0)); then
  step "scripts/test.sh" in_room test scripts/test.sh
fi

printf '\n==== cleanroom: timings ====\n'
printf '%s\n' "${timings[@]}"
