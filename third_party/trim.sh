#!/bin/sh
# trim.sh DIR: keep of an upstream module only what a build needs (see
# third_party/README.md): Go sources without tests, go.mod, go.sum, the
# licence, the top README, and chroma's embedded XML lexers and styles.
set -e
cd "$1"
find . -depth -type d \( -name testdata -o -name '_*' -o -name '.*' ! -name . \) -exec rm -rf {} +
find . -type f ! \( -name '*.go' -o -name go.mod -o -name go.sum -o -name 'LICENSE*' -o -name 'COPYING*' \
	-o -path ./README.md -o -path './lexers/embedded/*.xml' -o -path './styles/*.xml' \) -delete
find . -name '*_test.go' -type f -delete
find . -depth -type d -empty -delete
