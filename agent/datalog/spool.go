package datalog

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"sync"
	"syscall"
)

// The spool is the datalog's write-ahead file. QueueRound appends a round
// to it with one write, and the round is then as durable as a SQLite
// commit with synchronous=NORMAL: it survives a killed process, not a
// power cut. SQLite commits it later, with the rounds after it, while the
// model answers (writer.go: lazyDelay), so the next request need not wait
// for the commit. Each process writes its own file next to the database
// and holds an flock on it while it lives; a file nobody holds belongs to
// a process that died, and the next keel that opens the datalog for
// writing commits what it holds (replaySpools) and removes it.
type spool struct {
	path string

	mu       sync.Mutex
	f        *os.File // nil until the first append, and after a failure to create
	size     int64    // bytes of whole frames in f
	appended int      // rounds appended since the file was last emptied
	done     int      // of those, rounds the writer has committed
	frame    []byte   // reused encoding buffer
	broken   bool     // a failed write could not be cut off: no more appends
}

func newSpool(dbPath string) *spool {
	var id [6]byte
	_, _ = rand.Read(id[:])
	return &spool{path: fmt.Sprintf("%s-spool.%d-%s", dbPath, os.Getpid(), hex.EncodeToString(id[:]))}
}

// spoolEntry is one round as the spool holds it: redacted and ready for
// SQL, with its messages as stored (preparedRound), encoded by
// spool_codec.go.
type spoolEntry struct {
	Round    RoundRecord // Messages is nil: they are below, as stored
	Messages []string    // the messages' JSON
	At       int64       // when it was prepared (recall documents' time)
}

// frameHeader is a frame's length and CRC-32C of its payload, each a
// little-endian uint32; a torn or damaged frame ends the file for replay.
const frameHeader = 8

// castagnoli is made on first use: building its tables in init cost every
// keel process ~0.3 ms, the sandbox helper and keel --version included.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// appendRound writes p as one frame. An error leaves the file as it was
// (a partial frame is cut off) and the caller commits the round itself.
func (s *spool) appendRound(p *preparedRound) error {
	entry := spoolEntry{Round: p.rec, Messages: p.messages, At: p.at}
	entry.Round.Messages = nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return errSpoolBroken
	}
	if err := s.open(); err != nil {
		return err
	}
	frame := encodeFrame(s.frame[:0], &entry)
	s.frame = frame[:0]
	if cap(s.frame) > 1<<20 {
		s.frame = nil // do not keep a large round's buffer
	}
	if _, err := s.f.Write(frame); err != nil {
		// Cut a partial frame off so the frames after it stay readable;
		// if even that fails, append no more. The file stays open and
		// locked either way: its rounds may not be committed yet.
		if terr := s.f.Truncate(s.size); terr != nil {
			s.broken = true
		}
		return fmt.Errorf("spool %s: %w", s.path, err)
	}
	s.size += int64(len(frame))
	s.appended++
	return nil
}

// encodeFrame appends entry's frame to buf.
func encodeFrame(buf []byte, entry *spoolEntry) []byte {
	start := len(buf)
	buf = encodeEntry(append(buf, make([]byte, frameHeader)...), entry)
	payload := buf[start+frameHeader:]
	binary.LittleEndian.PutUint32(buf[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(payload, castagnoli()))
	return buf
}

// What follows a spool file's last readable frame.
type spoolRest int

const (
	spoolEnd     spoolRest = iota // nothing, or a torn last frame (a write cut short)
	spoolDamaged                  // a whole frame that fails its checksum or does not decode
	spoolForeign                  // a frame of another version of the format
)

// decodeFrames returns the entries of a spool file's content, up to the
// first frame that is torn, damaged or not an entry, and what stopped it.
func decodeFrames(b []byte) ([]spoolEntry, spoolRest) {
	var out []spoolEntry
	for len(b) > 0 {
		if len(b) < frameHeader {
			return out, spoolEnd
		}
		n := int(binary.LittleEndian.Uint32(b[0:4]))
		sum := binary.LittleEndian.Uint32(b[4:8])
		if n > len(b)-frameHeader {
			return out, spoolEnd
		}
		payload := b[frameHeader : frameHeader+n]
		if crc32.Checksum(payload, castagnoli()) != sum {
			return out, spoolDamaged
		}
		e, err := decodeEntry(payload)
		switch {
		case err != nil && len(payload) > 0 && payload[0] != spoolVersion:
			return out, spoolForeign
		case err != nil:
			return out, spoolDamaged
		}
		out = append(out, e)
		b = b[frameHeader+n:]
	}
	return out, spoolEnd
}

// open creates the process's file on first use: under a temporary name,
// locked, then renamed into place. Another keel replaying meanwhile may
// take the temporary file for a dead one's (it has the spool's prefix):
// it finds it empty and removes it, the rename fails, and this round is
// committed instead of spooled.
func (s *spool) open() error {
	if s.f != nil {
		return nil
	}
	tmp := s.path + ".new"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("spool: lock %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("spool: %w", err)
	}
	s.f, s.size, s.appended, s.done = f, 0, 0, 0
	return nil
}

// spoolKeep is the size up to which a spool whose rounds are all in
// SQLite is left as it is: replay skips rounds SQLite has, and emptying
// it after every commit would cost a system call each time.
const spoolKeep = 256 << 10

// committed tells the spool the writer committed n of its rounds; once
// every round appended is in SQLite and the file passed spoolKeep, it is
// emptied.
func (s *spool) committed(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done += n
	if s.f == nil || s.done < s.appended || s.size < spoolKeep {
		return
	}
	if err := s.f.Truncate(0); err != nil {
		return // replay skips rounds SQLite holds: the file is only larger
	}
	s.size, s.appended, s.done = 0, 0, 0
}

// waiting is how many appended rounds the writer has not committed yet.
func (s *spool) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appended - s.done
}

// close removes the file when everything it held is committed, and keeps
// it for the next open to replay otherwise. It reports whether it kept it.
func (s *spool) close() (kept bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return false
	}
	kept = s.done < s.appended
	if !kept {
		os.Remove(s.path) // while locked: no other process replays it meanwhile
	}
	s.closeLocked()
	return kept
}

func (s *spool) closeLocked() {
	s.f.Close() // releases the lock
	s.f = nil
}

// errSpoolBroken: the spool could not cut off a failed write; the rounds
// after it are committed without it.
var errSpoolBroken = errors.New("the spool could not recover from a failed write")

// errSpoolLive says another living process holds a spool file.
var errSpoolLive = errors.New("spool held by a running keel")

// takeDead opens and locks the spool file at path when its process is
// gone; errSpoolLive when it is still running.
func takeDead(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errSpoolLive
		}
		return nil, err
	}
	return f, nil
}
