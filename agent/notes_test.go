package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

func TestMemoryLRU(t *testing.T) {
	m := newMemory(2, nil)
	steps := []struct {
		a       NoteArgs
		want    string // in the reply, or the error
		evicted string
		ids     string
	}{
		{NoteArgs{Action: NotePin, Text: "port is 8080"}, "pin n1; working memory: 1 of 2 notes", "", "n1"},
		{NoteArgs{Action: NotePin, Text: "config in etc/"}, "pin n2", "", "n1, n2"},
		{NoteArgs{Action: NoteUpdate, ID: "n1", Text: "port is 9090"}, "update n1", "", "n1, n2"},
		{NoteArgs{Action: NotePin, Text: "tests in t/"}, "the least recently used note n2", "n2", "n1, n3"},
		{NoteArgs{Action: NoteDrop, ID: "n1"}, "drop n1; working memory: 1 of 2", "", "n3"},
		{NoteArgs{Action: NoteDrop, ID: "n9"}, `no note "n9"; the notes are n3`, "", "n3"},
		{NoteArgs{Action: NotePin, Text: " "}, "pin needs text", "", "n3"},
		{NoteArgs{Action: "forget", ID: "n3"}, `action "forget" is unknown`, "", "n3"},
		{NoteArgs{Action: NotePin, Text: strings.Repeat("x", maxNoteText+1)}, "pin needs text of 1 to 500", "", "n3"},
	}
	for i, st := range steps {
		reply, _, ev, msg := m.apply(st.a)
		got := reply + msg
		if !strings.Contains(got, st.want) {
			t.Errorf("step %d: %q lacks %q", i, got, st.want)
		}
		evicted := ""
		if ev != nil {
			evicted = ev.ID
		}
		if evicted != st.evicted || m.ids() != st.ids {
			t.Errorf("step %d: evicted %q, notes %s; want %q, %s", i, evicted, m.ids(), st.evicted, st.ids)
		}
	}
}

func TestNotesSurviveCompaction(t *testing.T) {
	rounds := []llmtest.Round{
		llmtest.ToolRound(call("", NoteToolName, `{"action":"pin","text":"the bug is in parse.go line 40"}`)),
		llmtest.ToolRound(call("", NoteToolName, `{"action":"pin","text":"second fact"}`)),
		llmtest.ToolRound(call("", NoteToolName, `{"action":"pin","text":"third fact"}`)), // evicts n1
		echo("x"),
		llmtest.ContextLengthRound(),
		llmtest.TextRound("summary of the work"), // the compaction's answer
		llmtest.TextRound("done"),
	}
	s, srv := newSession(t, llmtest.Rounds(rounds...), func(o *Options) {
		o.NotesMax = 2
		o.Limits.KeepRounds = 1
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s: %s", st.Reason, st.Message)
	}
	if got := s.Notes(); len(got) != 2 || got[0].ID != "n2" || got[1].ID != "n3" {
		t.Fatalf("notes = %+v", got)
	}
	var evicted bool
	for _, n := range eventsOf[Notice](evs) {
		evicted = evicted || strings.Contains(n.Text, "dropped the least recently used, n1")
	}
	if !evicted {
		t.Errorf("no notice of the eviction: %s", describe(evs))
	}
	last := srv.Requests()[len(srv.Requests())-1].Messages
	var preamble string
	for _, m := range last {
		if strings.Contains(m.Content, "Summary of the work so far") {
			preamble = m.Content
		}
	}
	if !strings.Contains(preamble, "n2: second fact") || !strings.Contains(preamble, "n3: third fact") || strings.Contains(preamble, "parse.go") {
		t.Errorf("the compacted request's preamble = %q", preamble)
	}
}

// Evictions and pins are on record in the datalog.
func TestNoteEventsAreRecorded(t *testing.T) {
	s, db, id := recordedSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("", NoteToolName, `{"action":"pin","text":"a"}`)),
		llmtest.ToolRound(call("", NoteToolName, `{"action":"pin","text":"b"}`)),
		llmtest.TextRound("ok")), func(o *Options) { o.NotesMax = 1 })
	runTask(t, context.Background(), s, "go")
	evs, err := db.NoteEvents(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.Action+" "+e.NoteID)
	}
	if strings.Join(got, ",") != "pin n1,evict n1,pin n2" {
		t.Errorf("note events = %v", got)
	}
}

func TestMaxDurationStopsWithAPartialResult(t *testing.T) {
	s, _ := newSession(t, llmtest.Rounds(
		llmtest.Round{Text: "I looked at a; now b.", ToolCalls: []llmtest.Call{{Name: "echo", Args: `{"path":"a"}`}}},
		llmtest.Round{Hang: true},
	), func(o *Options) { o.MaxDuration = 300 * time.Millisecond })
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopMaxDuration || !st.Reason.Halted() || st.Result != "I looked at a; now b." || !strings.Contains(st.Message, "max_duration 300ms") {
		t.Fatalf("stop %s (%s), result %q", st.Reason, st.Message, st.Result)
	}
}

func TestLessonsAreStoredAndOffered(t *testing.T) {
	s, db, id := recordedSession(t, llmtest.Rounds(
		planCall("fix the parser", "parse=active"),
		planCall("fix the parser", "parse=failed"),
		planCall("fix the parser", "tokenizer=completed"),
		llmtest.TextRound("fixed the tokenizer instead"),
	), func(o *Options) { o.Lessons = 3; o.Project = "/p"; o.Discipline.Set("stall_calls", 0) })
	runTask(t, context.Background(), s, "fix the parser bug")
	s.Close()
	// a new session of the same project, and one of another project
	db2 := db
	id2, err := db2.StartSession(context.Background(), datalog.Session{ProjectRoot: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	s2, srv2 := newSession(t, llmtest.Rounds(llmtest.TextRound("ok")), func(o *Options) {
		o.Recorder, o.SessionID, o.Lessons, o.Project = NewRecorder(db2, id2, 0, false), id2, 3, "/p"
	})
	evs, _ := runTask(t, context.Background(), s2, "the parser crashes again")
	offered := eventsOf[LessonsOffered](evs)
	msgs := srv2.Requests()[0].Messages
	note := msgs[len(msgs)-1].Content
	if len(offered) != 1 || !strings.HasPrefix(note, LessonsMark) || !strings.Contains(note, "parse: it broke") || !strings.Contains(note, "tokenizer") {
		t.Fatalf("offered %+v; last message %q", offered, note)
	}
	if msgs[len(msgs)-2].Content != "the parser crashes again" {
		t.Errorf("the prompt does not come first: %+v", msgs)
	}
	_ = id
	s3, srv3 := newSession(t, llmtest.Rounds(llmtest.TextRound("ok")), func(o *Options) {
		o.Recorder, o.Lessons, o.Project = NewRecorder(db2, id2, 0, false), 3, "/elsewhere"
	})
	runTask(t, context.Background(), s3, "the parser crashes again")
	if m := srv3.Requests()[0].Messages; strings.HasPrefix(m[len(m)-1].Content, LessonsMark) {
		t.Errorf("another project's lessons were offered")
	}
}
