package tools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"sync"
)

// grepMaxLine is how much of one line is matched: the rest of a longer
// line (minified code, a data dump) is read past, so a worker holds at
// most this much of any file.
const grepMaxLine = 4 << 20

// readers are the workers' line readers, reused across files.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// searchFile reads one file line by line and records its matching lines
// with their context. A file with a NUL byte is binary and skipped whole;
// a file stops being read once it alone holds grepMaxCollect matches.
func (s *goSearch) searchFile(f io.Reader, abs string) {
	br := readers.Get().(*bufio.Reader)
	br.Reset(f)
	defer func() { br.Reset(nil); readers.Put(br) }()
	fl := fileLines{context: s.q.context}
	var long []byte
	for num := 1; fl.matches < grepMaxCollect; num++ {
		if s.block != nil && fl.context == 0 {
			num += skipToCandidate(br, s.block)
		}
		line, err := readLine(br, &long)
		if err != nil && (len(line) == 0 || !errors.Is(err, io.EOF)) {
			break // the end, or a read error: keep what was found
		}
		if bytes.IndexByte(line, 0) >= 0 {
			return // binary
		}
		fl.add(num, line, s.q.re.Match(line))
		if err != nil {
			break
		}
	}
	if fl.matches > 0 {
		s.found(grepFile{path: abs, lines: fl.out}, fl.matches)
	}
}

// readLine returns the next line without its "\n", valid until the next
// call; long holds a line longer than the reader's buffer, up to
// grepMaxLine. It returns io.EOF with the last line when the file does
// not end in a newline, and with an empty line at the end.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	buf := append((*long)[:0], line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = br.ReadSlice('\n')
		if room := grepMaxLine - len(buf); room > 0 {
			buf = append(buf, line[:min(len(line), room)]...)
		}
	}
	*long = buf
	if err == nil {
		buf = bytes.TrimSuffix(buf, []byte("\n"))
	}
	return buf, err
}

// fileLines collects one file's output lines: its matches, and with
// context the lines around them, each once and in order.
type fileLines struct {
	context int
	out     []grepLine
	matches int
	before  []grepLine // the last context lines not yet printed
	after   int        // lines still to print after the last match
}

func (fl *fileLines) add(num int, line []byte, match bool) {
	switch {
	case match:
		fl.out = append(fl.out, fl.before...)
		fl.before = fl.before[:0]
		fl.out = append(fl.out, grepLine{num: num, text: string(line), match: true})
		fl.matches++
		fl.after = fl.context
	case fl.after > 0:
		fl.out = append(fl.out, grepLine{num: num, text: string(line)})
		fl.after--
	case fl.context > 0:
		if len(fl.before) == fl.context {
			fl.before = append(fl.before[:0], fl.before[1:]...)
		}
		fl.before = append(fl.before, grepLine{num: num, text: string(line)})
	}
}

// skipToCandidate reads past the complete lines buffered in br before the
// first one where block, the pattern in multi-line mode, finds a match,
// and returns how many it read past. A line the pattern matches on its
// own holds such a match, and the leftmost match is at or before it, so
// no matching line is passed; Go's regexp looks for the pattern's literal
// prefix first, so a buffer of lines without it goes by at memchr's pace.
func skipToCandidate(br *bufio.Reader, block *regexp.Regexp) int {
	if br.Buffered() == 0 {
		_, _ = br.Peek(1) // fill the buffer
	}
	buf, _ := br.Peek(br.Buffered())
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		return 0
	}
	buf = buf[:end+1]
	cut := len(buf)
	if loc := block.FindIndex(buf); loc != nil {
		cut = bytes.LastIndexByte(buf[:loc[0]], '\n') + 1
	}
	if bytes.IndexByte(buf[:cut], 0) >= 0 {
		return 0 // binary: the line reader says so
	}
	_, _ = br.Discard(cut)
	return bytes.Count(buf[:cut], []byte{'\n'})
}
