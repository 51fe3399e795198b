#!/bin/sh
# verify.sh [-test]: check that each patched module under third_party/ is
# exactly its upstream release (from the Go module proxy, trimmed by
# trim.sh) with its keel.patch applied. With -test, also run upstream's
# tests and keel's tests of each patch (_patchtests/) on a full patched
# copy, and compare chroma's lexer and style lookups with upstream's.
# Run from anywhere; needs go, patch and diff. See third_party/README.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
runtests=false
[ "${1:-}" = "-test" ] && runtests=true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# modules: directory, module path, upstream version.
modules="chroma github.com/alecthomas/chroma/v2 v2.14.0
glamour charm.land/glamour/v2 v2.0.1
goldmark github.com/yuin/goldmark v1.7.8
bubbletea charm.land/bubbletea/v2 v2.0.10
lipgloss charm.land/lipgloss/v2 v2.0.6"

upstream() { # module@version -> its directory in the module cache
	(cd "$tmp" && go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
}

echo "$modules" | while read -r name mod ver; do
	src=$(upstream "$mod@$ver")
	[ -d "$src" ] || { echo "verify: cannot download $mod@$ver"; exit 1; }

	cp -r "$src" "$tmp/$name"
	chmod -R u+w "$tmp/$name"
	sh "$here/trim.sh" "$tmp/$name"
	(cd "$tmp/$name" && patch -p1 -s <"$here/$name/keel.patch")
	if diff -r -x README.keel.md -x keel.patch "$tmp/$name" "$here/$name" >"$tmp/$name.diff"; then
		echo "ok   $name: upstream $mod $ver + keel.patch"
	else
		echo "FAIL $name differs from upstream $mod $ver + keel.patch:"
		cat "$tmp/$name.diff"
		exit 1
	fi

	$runtests || continue
	full="$tmp/$name-full"
	cp -r "$src" "$full"
	chmod -R u+w "$full"
	(cd "$full" && patch -p1 -s <"$here/$name/keel.patch")
	if [ -d "$here/_patchtests/$name" ]; then
		cp -r "$here/_patchtests/$name/." "$full/"
	fi
	if [ "$name" = glamour ]; then # the parity test compares with bluemonday
		(cd "$full" && go get github.com/microcosm-cc/bluemonday@v1.0.27 >/dev/null 2>&1)
	fi
	if (cd "$full" && go test -count=1 ./... >"$tmp/$name.test" 2>&1); then
		echo "ok   $name: upstream's tests and keel's pass on the patched copy"
	else
		echo "FAIL $name: tests on the patched copy:"
		grep -v '^ok\|no test files' "$tmp/$name.test" | tail -40
		exit 1
	fi
done || status=1

if $runtests && [ $status -eq 0 ]; then
	# chroma: every lookup the lexers' own test files exercise gives the
	# same lexer, style and highlighted output as upstream.
	cmp="$tmp/chroma-compare"
	mkdir -p "$cmp"
	cp "$here/_patchtests/chroma-compare/main.go" "$cmp/"
	src=$(upstream github.com/alecthomas/chroma/v2@v2.14.0)
	(
		cd "$cmp"
		go mod init chromacompare >/dev/null 2>&1
		go mod edit -require github.com/alecthomas/chroma/v2@v2.14.0
		go mod tidy >/dev/null 2>&1
		go run . "$src/lexers/testdata" >upstream.txt
		go mod edit -replace "github.com/alecthomas/chroma/v2=$here/chroma"
		go run . "$src/lexers/testdata" >patched.txt
	)
	if diff "$cmp/upstream.txt" "$cmp/patched.txt" >/dev/null; then
		echo "ok   chroma: $(wc -l <"$cmp/upstream.txt") lookups and highlights match upstream"
	else
		echo "FAIL chroma lookups differ from upstream:"
		diff "$cmp/upstream.txt" "$cmp/patched.txt" | head -40
		status=1
	fi
fi
exit $status
