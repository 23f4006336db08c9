#!/usr/bin/env bash
# meshfront-flash.sh - write a Meshfront OS image to a removable SD card, safely.
# Usage: meshfront-flash.sh IMAGE[.xz] [SHA256]
# Lists removable disks only, asks you to confirm, verifies before and after.
set -euo pipefail

die() { echo "error: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: $0 IMAGE[.xz] [SHA256]"
img=$1; want=${2:-}

sha() { if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi; }

[ -f "$img" ] || die "no such file: $img"
if [ -n "$want" ]; then
  got=$(sha "$img")
  [ "$got" = "$want" ] || die "checksum mismatch: expected $want, got $got"
  echo "checksum OK"
fi

echo "Removable disks:"
case "$(uname)" in
  Linux)  lsblk -d -o NAME,SIZE,RM,MODEL | awk 'NR==1 || $3==1' ;;
  Darwin) diskutil list external physical ;;
  *) die "unsupported system; use Linux, macOS or WSL" ;;
esac
read -r -p "Type the device to overwrite (e.g. sdb or disk4): " dev
[ -n "$dev" ] || die "no device given"
case "$(uname)" in
  Linux)  [ "$(cat /sys/block/$dev/removable 2>/dev/null)" = 1 ] || die "$dev is not removable; refusing"; target=/dev/$dev ;;
  Darwin) diskutil info "$dev" | grep -q "Removable Media: *Removable" || die "$dev is not removable; refusing"
          diskutil unmountDisk "$dev"; target=/dev/r$dev ;;
esac
read -r -p "ALL DATA on $target will be erased. Type YES to continue: " ok
[ "$ok" = YES ] || die "aborted"

if [[ "$img" == *.xz ]]; then xz -dc "$img" | sudo dd of="$target" bs=4M conv=fsync status=progress
else sudo dd if="$img" of="$target" bs=4M conv=fsync status=progress; fi
sync
unpack() { if [[ "$img" == *.xz ]]; then xz -dc "$img"; else cat "$img"; fi; }
echo "verifying..."
size=$(unpack | wc -c)
expect=$(unpack | (sha256sum 2>/dev/null || shasum -a 256) | cut -d' ' -f1)
actual=$(sudo head -c "$size" "$target" | (sha256sum 2>/dev/null || shasum -a 256) | cut -d' ' -f1)
[ "$actual" = "$expect" ] || die "verify failed: re-flash or try another card"
echo "done: insert the card into your gateway and power it on"
