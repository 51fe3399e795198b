package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The recall benchmark's datalog: 10,000 sessions in 25 projects, made
// once per test binary into a temporary file (removed by TestMain).
const (
	benchSessions = 10_000
	benchProjects = 25
)

var recallBench struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if recallBench.dir != "" {
		os.RemoveAll(recallBench.dir)
	}
	os.Exit(code)
}

// benchStop are the vocabulary's most frequent words (ranks 0 to 49);
// benchTopics are coding words spread over ranks 60 to 2,500, and each
// session is about three of them (its topic), which half its texts
// repeat: words that go together, as in real sessions.
var (
	benchStop = strings.Fields(`the a to and of in is it that for on with this be as are i you we
		not have was by at from or but an can if so do will all my what there when which out up
		about into just like then than them some now`)
	benchTopics = strings.Fields(`test fix error file config build run function datalog session
		writer round flaky timeout parse handler server client cache update plan command lint
		refactor module package import struct interface channel context cancel retry backoff
		sqlite migration index query search recall prompt answer budget limit token stream
		render view layout status panel dialog theme color terminal sandbox`)
)

// benchVocab is a Zipf-ranked vocabulary of 6,000 words: benchStop at the
// head, benchTopics spread out, made-up words in between.
var benchVocab = func() []string {
	syll := strings.Fields("ka lo mi nu pe ra si vu xa yo ze bri cla dro fen gul hap jor")
	r := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{}
	v := make([]string, 0, 6000)
	for len(v) < cap(v) {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v = append(v, w)
		}
	}
	copy(v, benchStop)
	for i, w := range benchTopics {
		v[60+i*40] = w
	}
	return v
}()

// benchText is n words drawn from the vocabulary, with each of the
// session's topic words added at random places half of the time.
func benchText(r *rand.Rand, z *rand.Zipf, topic []string, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = benchVocab[z.Uint64()]
	}
	for _, w := range topic {
		if r.IntN(2) == 0 {
			words[r.IntN(n)] = w
		}
	}
	return strings.Join(words, " ")
}

// benchDatalog returns the path of the benchmark's datalog, making it on
// first use: sessions of one to three tasks, each with a prompt, a plan
// goal (every other task), two to eight rounds of tool calls and an
// answer, written in one transaction (about 130,000 documents).
func benchDatalog(tb testing.TB) string {
	recallBench.once.Do(func() {
		start := time.Now()
		recallBench.dir, recallBench.err = os.MkdirTemp("", "keel-recall-bench-")
		if recallBench.err == nil {
			recallBench.path = filepath.Join(recallBench.dir, "keel.db")
			recallBench.err = fillBenchDatalog(recallBench.path)
		}
		tb.Logf("made a datalog of %d sessions in %v", benchSessions, time.Since(start).Round(time.Millisecond))
	})
	if recallBench.err != nil {
		tb.Fatal(recallBench.err)
	}
	return recallBench.path
}

func fillBenchDatalog(path string) error {
	db, err := Open(path, Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.w.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The documents go to a temporary table first, then into recall_docs
	// in one statement: FTS5 flushes its pending terms at each statement,
	// so row by row would write 130,000 tiny segments and merge them.
	if _, err := tx.Exec(`CREATE TEMP TABLE bench_docs AS SELECT session_id, round_seq, task_seq, kind, at, text
		FROM recall_docs WHERE 0`); err != nil {
		return err
	}
	sess, err := tx.Prepare(`INSERT INTO sessions (id, project_root, first_prompt, started_at, ended_at, stop_reason)
		VALUES (?, ?, ?, ?, ?, 'completed')`)
	if err != nil {
		return err
	}
	doc, err := tx.Prepare(`INSERT INTO bench_docs VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(benchVocab)-1))
	for i := range benchSessions {
		at := t0.Add(time.Duration(i) * time.Minute)
		id := fmt.Sprintf("%08x%08x", uint32(at.Unix()), i)
		topic := []string{benchTopics[r.IntN(len(benchTopics))], benchTopics[r.IntN(len(benchTopics))], benchTopics[r.IntN(len(benchTopics))]}
		prompt := benchText(r, z, topic, 10+r.IntN(30))
		if _, err := sess.Exec(id, fmt.Sprintf("/home/u/src/project%02d", i%benchProjects), prompt, at.UnixNano(), at.UnixNano()); err != nil {
			return err
		}
		if err := benchSession(doc, r, z, topic, id, at.UnixNano(), prompt); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(`INSERT INTO recall_docs (session_id, round_seq, task_seq, kind, at, text, scope)
		SELECT b.session_id, b.round_seq, b.task_seq, b.kind, b.at, b.text, 'p' || hex(s.project_root)
		FROM bench_docs b JOIN sessions s ON s.id = b.session_id ORDER BY b.session_id, b.round_seq`); err != nil {
		return err
	}
	if _, err := tx.Exec(`DROP TABLE temp.bench_docs`); err != nil {
		return err
	}
	return tx.Commit()
}

// benchCalls are the tools of the generated rounds.
var benchCalls = []string{"read_file", "run_command", "grep", "edit_file", "glob"}

// benchSession writes one session's documents.
func benchSession(doc *sql.Stmt, r *rand.Rand, z *rand.Zipf, topic []string, id string, at int64, prompt string) error {
	round := 0
	for task := 1; task <= 1+r.IntN(3); task++ {
		if task > 1 {
			prompt = benchText(r, z, topic, 10+r.IntN(30))
		}
		texts := [][2]string{{RecallPrompt, prompt}}
		if task%2 == 1 {
			texts = append(texts, [2]string{RecallPlan, benchText(r, z, topic, 8+r.IntN(8))})
		}
		for range 2 + r.IntN(7) {
			var calls []string
			for range 1 + r.IntN(3) {
				calls = append(calls, benchCalls[r.IntN(len(benchCalls))]+" "+benchText(r, z, topic, 2+r.IntN(3)))
			}
			texts = append(texts, [2]string{RecallCalls, strings.Join(calls, "\n")})
		}
		texts = append(texts, [2]string{RecallAnswer, benchText(r, z, topic, 40+r.IntN(160))})
		for _, t := range texts {
			round++
			if _, err := doc.Exec(id, round, task, t[0], at+int64(round), t[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchSearches are the searches timed, in one project unless all is
// set: a few words of a topic; the same over every project; the kind of
// sentence a model writes (its stop words dropped); the most frequent
// topic word (one text in ten holds it); a stop word alone, which nearly
// every text holds (the worst case); and a rare word.
var benchSearches = []struct {
	name, text string
	all        bool
}{
	{"topic", "flaky datalog writer", false},
	{"topic-all-projects", "flaky datalog writer", true},
	{"sentence", "how did we fix the flaky timeout in the datalog writer", false},
	{"frequent-word", "test", false},
	{"stop-word", "the", false},
	{"rare-word", benchVocab[4000], false},
}

func BenchmarkRecallSearch10k(b *testing.B) {
	db, err := Open(benchDatalog(b), Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, s := range benchSearches {
		q := SearchQuery{Text: s.text, Project: "/home/u/src/project03", Limit: DefaultSearchLimit}
		if s.all {
			q.Project = ""
		}
		if hits, err := db.Search(context.Background(), q); err != nil || len(hits) == 0 {
			b.Fatalf("search %q finds nothing (%v): the benchmark would time an empty search", s.text, err)
		}
		b.Run(s.name, func(b *testing.B) {
			for range b.N {
				if _, err := db.Search(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
