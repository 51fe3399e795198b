package tools

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// rewriteLarge writes a new version of the file in (opened through r as
// base) with splices applied, into a temp file renamed over it. It checks
// the file still hashes to want while copying, and returns the new
// content's SHA-256.
func rewriteLarge(r *os.Root, in *os.File, base string, mode fs.FileMode, want []byte, splices []Splice) ([]byte, error) {
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	tmp := tempName(base)
	out, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			out.Close()
			r.Remove(tmp)
		}
	}()
	inSum, outSum := sha256.New(), sha256.New()
	if err := applySplices(io.TeeReader(in, inSum), io.MultiWriter(out, outSum), splices, false); err != nil {
		return nil, err
	}
	if !bytes.Equal(inSum.Sum(nil), want) {
		return nil, errors.New("the file changed while keel was editing it")
	}
	if err := out.Chmod(mode.Perm()); err != nil {
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	if err := r.Rename(tmp, base); err != nil {
		return nil, err
	}
	ok = true
	return outSum.Sum(nil), nil
}

// applySplices copies src to dst replacing each splice's Old with New,
// or (reverse) each New, at its offset in the edited file, with Old. It
// checks every replaced piece is what the splice says.
func applySplices(src io.Reader, dst io.Writer, splices []Splice, reverse bool) error {
	var pos, shift int64
	for _, s := range splices {
		from, to := s.Old, s.New
		off := s.Offset
		if reverse {
			from, to = s.New, s.Old
			off += shift // offsets are the original file's
			shift += int64(len(s.New) - len(s.Old))
		}
		if _, err := io.CopyN(dst, src, off-pos); err != nil {
			return fmt.Errorf("copy: %w", err)
		}
		got := make([]byte, len(from))
		if _, err := io.ReadFull(src, got); err != nil || string(got) != from {
			return fmt.Errorf("the text at byte %d is not what keel replaced", off)
		}
		if _, err := io.WriteString(dst, to); err != nil {
			return err
		}
		pos = off + int64(len(from))
	}
	_, err := io.Copy(dst, src)
	return err
}

// spliceDiff shows the first replacements as a unified diff with no
// context, so a large edit's result stays small.
func spliceDiff(rel string, splices []Splice) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", rel, rel)
	shift := 0
	for i, s := range splices {
		if i == 3 {
			fmt.Fprintf(&b, "(%d more replacements of the same text)\n", len(splices)-3)
			break
		}
		olds, news := splitLines(s.Old), splitLines(s.New)
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", s.Line, len(olds), s.Line+shift, len(news))
		for _, l := range olds {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range news {
			b.WriteString("+" + l + "\n")
		}
		shift += len(news) - len(olds)
	}
	return b.String()
}

// hashFile is the SHA-256 of a file read through its checked directory.
func hashFile(abs string) ([]byte, error) {
	f, err := openChecked(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
