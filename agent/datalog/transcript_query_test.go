package datalog

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// TestLoadTranscriptDropsRestoredHistory: a round that replaces the
// history (the first after a resume, a compaction) stores what it kept
// again; the transcript has each message once, in the round that added it.
func TestLoadTranscriptDropsRestoredHistory(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	prompt := llm.Message{Role: llm.RoleUser, Content: "fix it"}
	r1 := round(sid, 1, 1, tc("c1", "read_file", map[string]string{"path": "a.go"}, false))
	r1.Messages = append([]llm.Message{prompt}, r1.Messages...)
	r2 := round(sid, 2, 1)
	var history []llm.Message
	for _, r := range []RoundRecord{r1, r2} {
		if err := db.WriteRound(ctx, r); err != nil {
			t.Fatal(err)
		}
		history = append(history, r.Messages...)
	}
	// Resumed: the first round stores the whole history again, then its own.
	r3 := round(sid, 3, 2, tc("c2", "run_command", map[string]string{"command": "go test"}, true))
	again := llm.Message{Role: llm.RoleUser, Content: "again"}
	r3.Messages = append(append(append([]llm.Message{}, history...), again), r3.Messages...)
	r3.HistoryReset = true
	// Compacted: a preamble and the kept tail, then the round's own.
	r4 := round(sid, 4, 2)
	preamble := llm.Message{Role: llm.RoleUser, Content: "[keel compacted the earlier conversation to fit the context window.]"}
	r4.Messages = append([]llm.Message{preamble, r3.Messages[len(r3.Messages)-2], r3.Messages[len(r3.Messages)-1]}, r4.Messages...)
	r4.HistoryReset = true
	for _, r := range []RoundRecord{r3, r4} {
		if err := db.WriteRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	d, err := db.LoadTranscript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"user fix it", "assistant round 1", "tool out c1"},
		{"assistant round 2"},
		{"user again", "assistant round 3", "tool out c2"},
		{"user [keel compacted the earlier conversation to fit the context window.]", "assistant round 4"},
	}
	if len(d.Rounds) != len(want) {
		t.Fatalf("%d rounds, want %d", len(d.Rounds), len(want))
	}
	for i, rd := range d.Rounds {
		var got []string
		for _, m := range rd.Messages {
			got = append(got, string(m.Msg.Role)+" "+m.Msg.Content)
		}
		if len(got) != len(want[i]) {
			t.Fatalf("round %d: %q, want %q", rd.Round.Seq, got, want[i])
		}
		for j := range got {
			if got[j] != want[i][j] {
				t.Errorf("round %d message %d: %q, want %q", rd.Round.Seq, j, got[j], want[i][j])
			}
		}
	}
	if len(d.Rounds[2].ToolCalls) != 1 || !d.Rounds[2].ToolCalls[0].IsError {
		t.Errorf("round 3 tool calls = %+v, want the failed c2", d.Rounds[2].ToolCalls)
	}
}

// LoadTranscriptTail loads the last n rounds, says when it left rounds
// out, and is LoadTranscript when the session is shorter.
func TestLoadTranscriptTail(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	for seq := 1; seq <= 10; seq++ {
		if err := db.WriteRound(ctx, round(sid, seq, 1+seq/6)); err != nil {
			t.Fatal(err)
		}
	}
	empty := startTest(t, db, Session{ProjectRoot: "/p"})
	cases := []struct {
		id         string
		n          int
		first, num int
		tail       bool
	}{
		{sid, 3, 8, 3, true},
		{sid, 9, 2, 9, true},
		{sid, 10, 1, 10, false},
		{sid, 50, 1, 10, false},
		{empty, 5, 0, 0, false},
	}
	for _, c := range cases {
		d, err := db.LoadTranscriptTail(ctx, c.id, c.n)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Rounds) != c.num || d.Tail != c.tail || (c.num > 0 && d.Rounds[0].Round.Seq != c.first) {
			first := 0
			if len(d.Rounds) > 0 {
				first = d.Rounds[0].Round.Seq
			}
			t.Errorf("tail of %d: %d rounds from %d, tail %v; want %d from %d, tail %v", c.n, len(d.Rounds), first, d.Tail, c.num, c.first, c.tail)
		}
	}
}

// A session nothing was asked in (a TUI opened and killed before its
// first prompt) is not the latest one to continue, and DropEmptySession
// removes only such a session.
func TestEmptySessions(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	asked := startTest(t, db, Session{ProjectRoot: "/p", Started: t0.Add(time.Second)})
	if err := db.WriteRound(ctx, round(asked, 1, 1)); err != nil {
		t.Fatal(err)
	}
	prompted := startTest(t, db, Session{ProjectRoot: "/p", Started: t0.Add(2 * time.Second)})
	if err := db.SetFirstPrompt(ctx, prompted, "a prompt, killed before its round"); err != nil {
		t.Fatal(err)
	}
	empty := startTest(t, db, Session{ProjectRoot: "/p", Started: t0.Add(3 * time.Second)})
	if got, err := db.LatestSession(ctx, "/p"); err != nil || got.ID != prompted {
		t.Errorf("LatestSession = %s, %v; want the prompted session %s, not the empty %s", got.ID, err, prompted, empty)
	}
	for _, id := range []string{asked, prompted, empty} {
		if err := db.DropEmptySession(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	list, err := db.ListSessions(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	if len(ids) != 2 || ids[0] != prompted || ids[1] != asked {
		t.Errorf("after dropping: %v, want [%s %s]", ids, prompted, asked)
	}
}

// Loading some rounds reads their messages through messages_round, not
// every message of the session: SQLite's plan for the loader's query
// searches that index by session and round range, with no sort.
func TestLoadMessagesUsesRoundIndex(t *testing.T) {
	db := openTest(t, Options{})
	ctx := context.Background()
	rows, err := db.read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+loadMessagesSQL, "s", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	got := strings.Join(plan, "; ")
	if !strings.Contains(got, "USING INDEX messages_round (session_id=? AND round_seq>? AND round_seq<?)") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("the plan of the loader's messages query is %q; want a search of messages_round by session and round range, without a sort", got)
	}
}
