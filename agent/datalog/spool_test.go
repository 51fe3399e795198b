package datalog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// spoolFiles lists the spool files next to the database at path.
func spoolFiles(t testing.TB, path string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(filepath.Dir(path), filepath.Base(path)+"-spool.*"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// spooledRounds decodes every spool file of the database at path.
func spooledRounds(t testing.TB, path string) []int {
	t.Helper()
	var seqs []int
	for _, name := range spoolFiles(t, path) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		entries, _ := decodeFrames(b)
		for _, e := range entries {
			seqs = append(seqs, e.Round.Round.Seq)
		}
	}
	return seqs
}

func roundsIn(t testing.TB, db *DB, sid string) []int {
	t.Helper()
	d, err := db.LoadSession(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, r := range d.Rounds {
		seqs = append(seqs, r.Round.Seq)
	}
	return seqs
}

// sessionAt opens a new datalog with opts, the caller closing it, and
// starts a session in it.
func sessionAt(t *testing.T, opts Options) (path string, db *DB, sid string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "keel.db")
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return path, db, startTest(t, db, Session{})
}

// openReplayed opens the datalog at path, which must then hold want
// rounds of sid and no spool; the caller closes it.
func openReplayed(t *testing.T, path string, opts Options, sid string, want int) *DB {
	t.Helper()
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := roundsIn(t, db, sid); len(got) != want {
		t.Errorf("rounds %v after the open, want %d", got, want)
	}
	if files := spoolFiles(t, path); len(files) != 0 {
		t.Errorf("spool files left after the open: %v", files)
	}
	return db
}

func queue(t testing.TB, db *DB, rec RoundRecord) {
	t.Helper()
	if err := db.QueueRound(context.Background(), rec)(); err != nil {
		t.Fatalf("QueueRound %d: %v", rec.Round.Seq, err)
	}
}

// A round QueueRound has returned from is in the spool even while SQLite
// cannot take it (another connection holds the lock), and reaches the
// database once it can; the spool is then removed at Close.
func TestQueuedRoundIsSpooledBeforeQueueRoundReturns(t *testing.T) {
	path, db, sid := sessionAt(t, Options{BusyTimeout: 50e6})
	release := lockDB(t, path)
	queue(t, db, round(sid, 1, 1, tc("a", "read_file", map[string]any{"path": "x"}, false)))
	queue(t, db, round(sid, 2, 1))
	if got := spooledRounds(t, path); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("spool holds rounds %v, want [1 2]", got)
	}
	release()
	if got := roundsIn(t, db, sid); len(got) != 2 {
		t.Fatalf("after the lock went: rounds %v, want [1 2]", got)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if files := spoolFiles(t, path); len(files) != 0 {
		t.Errorf("spool files left after a clean Close: %v", files)
	}
}

// Every read through the DB sees the rounds QueueRound returned from,
// committed or not yet, and a burst of them keeps the messages in order.
func TestReadsSeeQueuedRounds(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	const n = 3 * lazyMax
	for i := 1; i <= n; i++ {
		queue(t, db, round(sid, i, 1, tc("c", "read_file", map[string]any{"path": i}, false)))
		if i%7 == 0 { // a read in the middle of a burst
			if got := roundsIn(t, db, sid); len(got) != i {
				t.Fatalf("after %d rounds queued a read sees %d", i, len(got))
			}
		}
	}
	s, err := db.GetSession(context.Background(), sid)
	if err != nil || s.Totals.Rounds != n {
		t.Fatalf("session totals %+v, %v; want %d rounds", s.Totals, err, n)
	}
	hist, err := db.LoadHistory(context.Background(), sid)
	if err != nil || len(hist) != 2*n {
		t.Fatalf("history of %d messages, %v; want %d", len(hist), err, 2*n)
	}
	for i := 0; i < n; i++ {
		if want := "round " + strconv.Itoa(i+1); hist[2*i].Content != want {
			t.Fatalf("message %d = %q, want %q", 2*i, hist[2*i].Content, want)
		}
	}
}

// A round that fails for good (its session does not exist) is dropped
// without keeping the rounds batched with it out, and the next
// QueueRound reports it.
func TestBadRoundInABatchDropsOnlyItself(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	queue(t, db, round(sid, 1, 1))
	queue(t, db, round("no-such-session", 1, 1))
	queue(t, db, round(sid, 2, 1))
	if got := roundsIn(t, db, sid); len(got) != 2 {
		t.Fatalf("rounds %v, want [1 2]", got)
	}
	err := db.QueueRound(context.Background(), round(sid, 3, 1))()
	if err == nil || !strings.Contains(err.Error(), "no-such-session") {
		t.Errorf("next QueueRound = %v, want the dropped round's error", err)
	}
	if err := db.QueueRound(context.Background(), round(sid, 4, 1))(); err != nil {
		t.Errorf("the error is reported once; then %v", err)
	}
}

// When the spool cannot be written, QueueRound commits the round before
// it returns, as WriteRound does.
func TestUnwritableSpoolFallsBackToCommit(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	db.w.spool.path = filepath.Join(t.TempDir(), "missing", "spool")
	queue(t, db, round(sid, 1, 1))
	if n := db.w.spool.waiting(); n != 0 {
		t.Fatalf("%d rounds wait for a commit; want the round committed already", n)
	}
	var got int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM rounds WHERE session_id = ?`, sid).Scan(&got); err != nil || got != 1 {
		t.Fatalf("rounds committed = %d, %v; want 1 without any flush", got, err)
	}
}

// A spool whose keel still runs is not replayed by another opening the
// datalog; one whose keel is gone is, once, and removed.
func TestOnlyDeadSpoolsAreReplayed(t *testing.T) {
	path, db, sid := sessionAt(t, Options{})
	p, err := db.prepareRound(round(sid, 1, 1, tc("a", "read_file", map[string]any{"path": "x"}, false)))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Another keel's spool: it holds round 1, which SQLite lacks.
	other := newSpool(path)
	if err := other.appendRound(p); err != nil {
		t.Fatal(err)
	}

	live, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := roundsIn(t, live, sid); len(got) != 0 {
		t.Errorf("a running keel's spool was replayed: rounds %v", got)
	}
	live.Close()
	if files := spoolFiles(t, path); len(files) != 1 {
		t.Fatalf("a running keel's spool was touched: files %v", files)
	}

	other.mu.Lock()
	other.closeLocked() // the other keel dies: its lock goes, its file stays
	other.mu.Unlock()
	for range 2 { // the second open finds nothing left to do
		openReplayed(t, path, Options{}, sid, 1).Close()
	}
}

// Frames cut anywhere, or damaged, give the whole frames before the
// damage and nothing after it.
func TestSpoolFramesSurviveTornWrites(t *testing.T) {
	var buf []byte
	var ends []int
	for seq := 1; seq <= 3; seq++ {
		e := spoolEntry{Round: round("s", seq, 1, tc("c", "run_command", map[string]any{"command": "ls"}, false)), At: int64(seq)}
		e.Round.Messages = nil
		buf = encodeFrame(buf, &e)
		ends = append(ends, len(buf))
	}
	for cut := 0; cut <= len(buf); cut++ {
		want := 0
		for _, end := range ends {
			if end <= cut {
				want++
			}
		}
		if got, rest := decodeFrames(buf[:cut]); len(got) != want || rest != spoolEnd {
			t.Fatalf("cut at %d: %d entries, %v; want %d, a torn end", cut, len(got), rest, want)
		}
	}
	damaged := bytes.Clone(buf)
	damaged[ends[0]+frameHeader+3] ^= 0xff // inside the second frame's payload
	if got, rest := decodeFrames(damaged); len(got) != 1 || got[0].Round.Round.Seq != 1 || rest != spoolDamaged {
		t.Errorf("damaged second frame: %d entries, %v; want only the first, damaged", len(got), rest)
	}
	foreign := bytes.Clone(buf[:ends[0]])
	foreign = append(foreign, reframe(t, buf[ends[0]:ends[1]], func(p []byte) { p[0] = spoolVersion + 1 })...)
	if got, rest := decodeFrames(foreign); len(got) != 1 || rest != spoolForeign {
		t.Errorf("a frame of another version: %d entries, %v; want the first, foreign", len(got), rest)
	}
}

func FuzzDecodeFrames(f *testing.F) {
	e := spoolEntry{Round: round("s", 1, 1)}
	e.Round.Messages = nil
	good := encodeFrame(nil, &e)
	f.Add(good)
	f.Add(append(bytes.Clone(good), good[:10]...))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, _ := decodeFrames(b)
		if len(entries)*frameHeader > len(b) {
			t.Fatalf("%d entries from %d bytes", len(entries), len(b))
		}
		var again []byte
		for i := range entries {
			again = encodeFrame(again, &entries[i])
		}
		if got, rest := decodeFrames(again); len(got) != len(entries) || rest != spoolEnd {
			t.Fatalf("re-encoded %d entries decode to %d", len(entries), len(got))
		}
	})
}

// The spool holds rounds as the datalog stores them: redacted.
func TestSpoolHoldsNoSecrets(t *testing.T) {
	const key = "sk-fake-spool-0123456789"
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := Open(path, Options{Environ: []string{"OPENAI_API_KEY=" + key}, BusyTimeout: 50e6})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid := startTest(t, db, Session{})
	release := lockDB(t, path)
	defer release()
	rec := round(sid, 1, 1, ToolCall{CallID: "c", Name: "run_command", Arguments: `{"command":"echo ` + key + `"}`, Result: key})
	queue(t, db, rec)
	files := spoolFiles(t, path)
	if len(files) != 1 {
		t.Fatalf("spool files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(key)) {
		t.Error("the spool holds the API key")
	}
	if !bytes.Contains(b, []byte("[REDACTED:OPENAI_API_KEY]")) {
		t.Error("the spool lacks the redaction marker: is the round in it?")
	}
}

// QueueRound after Close says so.
func TestQueueRoundAfterClose(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	w := db.w
	db.Close()
	db.w = w // as a caller holding the DB would find it
	if err := db.QueueRound(context.Background(), round(sid, 1, 1))(); !errors.Is(err, ErrClosed) {
		t.Errorf("QueueRound after Close = %v, want ErrClosed", err)
	}
	db.w = nil
}

// keel log opens the datalog read-only; after a crash it still shows the
// rounds the dead keel had only spooled.
func TestReadOnlyOpenReplaysADeadSpool(t *testing.T) {
	path, db, sid := sessionAt(t, Options{})
	deadSpool(t, db, path, round(sid, 1, 1))
	db.Close()
	ro := openReplayed(t, path, Options{ReadOnly: true}, sid, 1)
	defer ro.Close()
	if err := ro.QueueRound(context.Background(), round(sid, 2, 1))(); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write on a read-only open = %v, want ErrReadOnly", err)
	}
}

// reframe changes a frame's payload with change and fixes its checksum.
func reframe(t *testing.T, frame []byte, change func(payload []byte)) []byte {
	t.Helper()
	out := bytes.Clone(frame)
	payload := out[frameHeader:]
	change(payload)
	binary.LittleEndian.PutUint32(out[4:8], crc32.Checksum(payload, castagnoli()))
	return out
}

// deadSpool writes a spool holding recs, as a keel that died would leave
// it, and returns its path.
func deadSpool(t *testing.T, db *DB, path string, recs ...RoundRecord) string {
	t.Helper()
	s := newSpool(path)
	for _, rec := range recs {
		p, err := db.prepareRound(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.appendRound(p); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	s.closeLocked() // its lock goes with the process; the file stays
	s.mu.Unlock()
	return s.path
}

// Dead keels' spools found while the database is locked stay, all of
// them, for the next open, which commits them.
func TestReplayWaitsOutAnOutage(t *testing.T) {
	path, db, sid := sessionAt(t, Options{})
	deadSpool(t, db, path, round(sid, 1, 1))
	deadSpool(t, db, path, round(sid, 2, 1))
	db.Close()

	release := lockDB(t, path)
	start := time.Now()
	locked, err := Open(path, Options{BusyTimeout: 100 * time.Millisecond})
	if err == nil { // the migrations' check may fail too while locked: either way nothing is lost
		locked.Close()
	}
	if files := spoolFiles(t, path); len(files) != 2 {
		t.Fatalf("spools after an open that could not commit them: %v, want both kept", files)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("the open waited %v; one refused commit should stop the replay", waited)
	}
	release()
	openReplayed(t, path, Options{}, sid, 2).Close()
}

// A spool with a damaged frame has the rounds before it committed and is
// set aside, not replayed again; one of another format version is left
// alone for the keel that wrote it.
func TestDamagedAndForeignSpools(t *testing.T) {
	path, db, sid := sessionAt(t, Options{})
	damaged := deadSpool(t, db, path, round(sid, 1, 1), round(sid, 2, 1))
	foreign := deadSpool(t, db, path, round(sid, 3, 1))
	db.Close()
	b, _ := os.ReadFile(damaged)
	b[len(b)-3] ^= 0xff // inside the second frame
	os.WriteFile(damaged, b, 0o600)
	b, _ = os.ReadFile(foreign)
	os.WriteFile(foreign, reframe(t, b, func(p []byte) { p[0] = spoolVersion + 1 }), 0o600)

	again, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := roundsIn(t, again, sid); len(got) != 1 || got[0] != 1 {
		t.Errorf("rounds %v, want [1]: the one before the damage", got)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("the foreign spool was not left alone: %v", err)
	}
	if _, err := os.Stat(strings.Replace(damaged, "-spool.", "-spool-damaged.", 1)); err != nil {
		t.Errorf("the damaged spool was not set aside: %v", err)
	}
	if _, err := os.Stat(damaged); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the damaged spool is still replayed: %v", err)
	}
}

// A spooled round that fails for good is reported by the next write of any
// kind, or by Close when no write follows.
func TestSpooledFailureReachesTheNextWriteOrClose(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	queue(t, db, round("no-such-session", 1, 1))
	if err := db.EndSession(context.Background(), sid, "completed", Totals{}); err == nil || !strings.Contains(err.Error(), "no-such-session") {
		t.Errorf("EndSession after a bad spooled round = %v, want its error", err)
	}

	other := openTest(t, Options{})
	queue(t, other, round("no-such-session", 1, 1))
	if err := other.Close(); err == nil || !strings.Contains(err.Error(), "no-such-session") {
		t.Errorf("Close after a bad spooled round = %v, want its error", err)
	}
}

// A read whose context is cancelled is not a datalog failure: the next
// write does not report it.
func TestCancelledReadIsNotAWriteFailure(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	queue(t, db, round(sid, 1, 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db.GetSession(ctx, sid)
	if err := db.QueueRound(context.Background(), round(sid, 2, 1))(); err != nil {
		t.Errorf("QueueRound after a cancelled read = %v", err)
	}
}

// While the database is locked, a spooled round's failed commit is
// reported by the next round, once; reads still work; an outage that
// ended before any round came after it is not reported late.
func TestOutageWithSpooledRounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := Open(path, Options{BusyTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid := startTest(t, db, Session{})
	seq := 0
	lockedBurst := func() (release func()) {
		release = lockDB(t, path)
		for range lazyMax { // the last one commits at once, and meets the lock
			seq++
			queue(t, db, round(sid, seq, 1))
		}
		deadline := time.Now().Add(10 * time.Second)
		for !db.w.outage.Load() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !db.w.outage.Load() {
			t.Fatal("no outage after 10 s of a locked database")
		}
		return release
	}
	waitSaved := func() {
		deadline := time.Now().Add(10 * time.Second)
		for db.Pending() > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}

	lockedBurst()() // an outage that ends with no round after it
	waitSaved()
	seq++
	if err := db.QueueRound(context.Background(), round(sid, seq, 1))(); err != nil {
		t.Errorf("a round after an outage that is over = %v, want nothing", err)
	}

	release := lockedBurst()
	if _, err := db.GetSession(context.Background(), sid); err != nil {
		t.Fatal(err)
	}
	var we *WriteError
	seq++
	if err := db.QueueRound(context.Background(), round(sid, seq, 1))(); !errors.As(err, &we) {
		t.Errorf("the round after the failed commit = %v, want the *WriteError", err)
	}
	seq++
	if err := db.QueueRound(context.Background(), round(sid, seq, 1))(); err != nil {
		t.Errorf("the outage is reported once; then %v", err)
	}
	release()
	waitSaved()
	if got := roundsIn(t, db, sid); len(got) != seq {
		t.Errorf("%d rounds stored, want %d", len(got), seq)
	}
}
