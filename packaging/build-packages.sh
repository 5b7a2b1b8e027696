#!/usr/bin/env bash
# Builds the Debian package and the tarball of noneops from the CLI's runnable jar:
#
#   target/noneops_<debian version>_all.deb   dpkg -i / apt-get install ./noneops_…_all.deb
#   target/noneops-<version>.tar.gz           unpack anywhere; bin/noneops runs it
#
# Both hold the jar (share/noneops/noneops.jar), the launcher (bin/noneops), the man pages
# (share/man/man1, gzipped), bash completion and the docs. The package's maintainer scripts
# (src/deb) start nothing on install; see postinst and prerm for upgrade and removal.
#
# Usage: build-packages.sh <maven version> <noneops.jar> <target directory>
set -euo pipefail

version="$1"
jar="$2"
target="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
man_dir="$repo/adapter-cli/target/man/man1"

[[ -f "$jar" ]] || { echo "build-packages: no runnable jar at $jar" >&2; exit 1; }
[[ -d "$man_dir" ]] || { echo "build-packages: no man pages in $man_dir" >&2; exit 1; }

# Reproducible: every timestamp is the last commit's (or SOURCE_DATE_EPOCH's).
if [[ -z "${SOURCE_DATE_EPOCH:-}" ]]; then
  SOURCE_DATE_EPOCH="$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)"
fi
export SOURCE_DATE_EPOCH
# Debian orders 0.1.0~SNAPSHOT before 0.1.0, as Maven orders 0.1.0-SNAPSHOT before 0.1.0.
deb_version="${version//-/\~}"

# One tree in the layout of /usr, used by both packages.
lay_out() {
  local usr="$1"
  install -d -m 0755 "$usr/bin" "$usr/share/noneops" "$usr/share/man/man1" \
    "$usr/share/bash-completion/completions" "$usr/share/doc/noneops"
  install -m 0755 "$here/src/launcher/noneops" "$usr/bin/noneops"
  install -m 0644 "$jar" "$usr/share/noneops/noneops.jar"
  local page
  for page in "$man_dir"/*.1; do
    gzip -9n -c "$page" > "$usr/share/man/man1/$(basename "$page").gz"
    chmod 0644 "$usr/share/man/man1/$(basename "$page").gz"
  done
  # A completion script is sourced, never run: no #! line.
  java -jar "$jar" completion | sed '1{/^#!/d}' > "$usr/share/bash-completion/completions/noneops"
  chmod 0644 "$usr/share/bash-completion/completions/noneops"
  # The journal's catalog of the agent's events (journalctl -x explains them); systemd's trigger
  # on this directory updates the catalog database.
  install -D -m 0644 "$repo/adapter-cli/src/main/resources/systemd/noneops.catalog" \
    "$usr/lib/systemd/catalog/noneops.catalog"
  install -m 0644 "$repo/README.md" "$usr/share/doc/noneops/README.md"
  (cd "$repo" && find docs -type f \( -name '*.md' -o -name '*.json' \) -print0) |
    while IFS= read -r -d '' doc; do
      install -D -m 0644 "$repo/$doc" "$usr/share/doc/noneops/$doc"
    done
  install -m 0644 "$here/src/deb/copyright" "$usr/share/doc/noneops/copyright"
  local date
  date="$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
  printf 'noneops (%s) unstable; urgency=medium\n\n  * Build %s of noneops.\n\n -- noneops maintainers <maintainers@noneops.dev>  %s\n' \
    "$deb_version" "$version" "$date" | gzip -9n > "$usr/share/doc/noneops/changelog.gz"
  chmod 0644 "$usr/share/doc/noneops/changelog.gz"
}

work="$target/package-root"
rm -rf "$work"
mkdir -p "$work/deb" "$work/tar"

# The Debian package.
lay_out "$work/deb/usr"
install -d -m 0755 "$work/deb/DEBIAN"
for script in postinst prerm; do
  install -m 0755 "$here/src/deb/$script" "$work/deb/DEBIAN/$script"
done
install -D -m 0644 "$here/src/deb/lintian-overrides" "$work/deb/usr/share/lintian/overrides/noneops"
size="$(du -s -k --apparent-size "$work/deb/usr" | cut -f1)"
sed -e "s/@VERSION@/$deb_version/" -e "s/@SIZE@/$size/" "$here/src/deb/control.in" \
  > "$work/deb/DEBIAN/control"
(cd "$work/deb" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) \
  > "$work/deb/DEBIAN/md5sums"
chmod 0644 "$work/deb/DEBIAN/control" "$work/deb/DEBIAN/md5sums"
find "$work/deb" -depth -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"
rm -f "$target"/noneops_*_all.deb
dpkg-deb --root-owner-group -Zxz --build "$work/deb" "$target/noneops_${deb_version}_all.deb" >/dev/null

# The tarball: the same tree under noneops-<version>/, without the Debian-only files.
base="noneops-$version"
lay_out "$work/tar/$base"
find "$work/tar" -depth -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"
tar -C "$work/tar" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -cf - "$base" | gzip -9n > "$target/$base.tar.gz"

echo "build-packages: $target/noneops_${deb_version}_all.deb and $target/$base.tar.gz"
