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

// benchVocab is a Zipf-distributed vocabulary: coding words at the head
// (the most frequent first), made-up words in the long tail.
var benchVocab = func() []string {
	head := strings.Fields(`the test fix error file go config build run add function
		datalog session writer round flaky timeout parse handler server client cache
		update plan command read write check lint refactor module package import
		struct interface channel context cancel retry backoff sqlite migration index
		query search recall prompt answer tool output budget limit token stream
		render view model layout status panel dialog theme color terminal sandbox`)
	syll := strings.Fields("ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fen gul hap jor")
	r := rand.New(rand.NewPCG(7, 7))
	for len(head) < 6000 {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		head = append(head, b.String())
	}
	return head
}()

// benchText is n words drawn from the vocabulary.
func benchText(z *rand.Zipf, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = benchVocab[z.Uint64()]
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
	sess, err := tx.Prepare(`INSERT INTO sessions (id, project_root, first_prompt, started_at, ended_at, stop_reason)
		VALUES (?, ?, ?, ?, ?, 'completed')`)
	if err != nil {
		return err
	}
	doc, err := tx.Prepare(`INSERT INTO recall_docs (session_id, round_seq, task_seq, kind, at, text) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(benchVocab)-1))
	for i := range benchSessions {
		at := t0.Add(time.Duration(i) * time.Minute)
		id := fmt.Sprintf("%08x%08x", uint32(at.Unix()), i)
		prompt := benchText(z, 10+r.IntN(30))
		if _, err := sess.Exec(id, fmt.Sprintf("/home/u/src/project%02d", i%benchProjects), prompt, at.UnixNano(), at.UnixNano()); err != nil {
			return err
		}
		if err := benchSession(doc, r, z, id, at.UnixNano(), prompt); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// benchCalls are the tools of the generated rounds.
var benchCalls = []string{"read_file", "run_command", "grep", "edit_file", "glob"}

// benchSession writes one session's documents.
func benchSession(doc *sql.Stmt, r *rand.Rand, z *rand.Zipf, id string, at int64, prompt string) error {
	round := 0
	for task := 1; task <= 1+r.IntN(3); task++ {
		if task > 1 {
			prompt = benchText(z, 10+r.IntN(30))
		}
		texts := [][2]string{{RecallPrompt, prompt}}
		if task%2 == 1 {
			texts = append(texts, [2]string{RecallPlan, benchText(z, 8+r.IntN(8))})
		}
		for range 2 + r.IntN(7) {
			var calls []string
			for range 1 + r.IntN(3) {
				calls = append(calls, benchCalls[r.IntN(len(benchCalls))]+" "+benchText(z, 2+r.IntN(3)))
			}
			texts = append(texts, [2]string{RecallCalls, strings.Join(calls, "\n")})
		}
		texts = append(texts, [2]string{RecallAnswer, benchText(z, 40+r.IntN(160))})
		for _, t := range texts {
			round++
			if _, err := doc.Exec(id, round, task, t[0], at+int64(round), t[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchSearches are the searches timed: a typical recall (a few words of
// middling frequency, this project), the same over every project, one
// very common word (the worst case: a third of all texts match), a rare
// word, and words no text has together (the fallback to any word).
var benchSearches = []struct {
	name, text string
	all        bool
}{
	{"typical", "flaky datalog writer timeout", false},
	{"all-projects", "flaky datalog writer timeout", true},
	{"common-word", "test", false},
	{"rare-word", benchVocab[4000], false},
	{"no-all-match", "sandbox " + benchVocab[3000] + " " + benchVocab[3001], false},
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
		b.Run(s.name, func(b *testing.B) {
			for range b.N {
				if _, err := db.Search(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
