package datalog

import (
	"context"
	"strings"
	"testing"
)

func TestLessonsRankWithinTheProject(t *testing.T) {
	db := openTest(t, Options{})
	ctx := context.Background()
	a := startTest(t, db, Session{ProjectRoot: "/work/p"})
	b := startTest(t, db, Session{ProjectRoot: "/work/other"})
	now := startTest(t, db, Session{ProjectRoot: "/work/p"})
	for _, l := range []Lesson{
		{SessionID: a, Task: 1, Text: "task: fix the parser crash\nfailed: go test ./parser timed out"},
		{SessionID: a, Task: 2, Text: "task: rename the config loader\nworked: gofmt"},
		{SessionID: b, Task: 1, Text: "task: parser crash in another project"},
		{SessionID: now, Task: 1, Text: "task: parser crash, this very session"},
	} {
		if err := db.WriteLesson(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		prompt string
		want   []string // texts' first words, in order
	}{
		{"the parser crashes on empty input", []string{"task: fix the parser crash"}},
		{"Rename the loader and fix the parser", []string{"task: rename", "task: fix"}},
		{"the and of", nil}, // stop words only: nothing relevant
		{"deploy to production", nil},
	}
	for _, c := range cases {
		got, err := db.Lessons(ctx, LessonQuery{Project: "/work/p", Prompt: c.prompt, Exclude: now, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %d lessons, want %d: %+v", c.prompt, len(got), len(c.want), got)
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(got[i].Text, w) {
				t.Errorf("%q: lesson %d = %q, want %q…", c.prompt, i, got[i].Text, w)
			}
		}
	}
}

func TestReflectionsAndNoteEventsRoundTrip(t *testing.T) {
	db := openTest(t, Options{Secrets: map[string]string{"OPENAI_API_KEY": "sk-abcdefghijklmnopqrstuvwx"}})
	ctx := context.Background()
	id := startTest(t, db, Session{ProjectRoot: "/p"})
	rows := []Reflection{
		{SessionID: id, Round: 3, CheckpointRound: 2, Status: ReflectionAnswered, Adjustment: "replan", Confidence: 0.3, JSON: []byte(`{"progress":"x","note":"OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx"}`), At: t0},
		{SessionID: id, Round: 6, CheckpointRound: 5, CheckpointIndex: 1, Status: ReflectionUnanswered, At: t0},
	}
	for _, r := range rows {
		if err := db.WriteReflection(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.WriteNoteEvent(ctx, NoteEvent{SessionID: id, Round: 2, Action: "evict", NoteID: "n1", Text: "old", At: t0}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Reflections(ctx, id)
	if err != nil || len(got) != 2 || got[0].Adjustment != "replan" || got[1].Status != ReflectionUnanswered || got[1].CheckpointIndex != 1 {
		t.Fatalf("reflections %+v, %v", got, err)
	}
	if strings.Contains(string(got[0].JSON), "sk-abcdefghij") {
		t.Errorf("a secret reached the datalog: %s", got[0].JSON)
	}
	notes, err := db.NoteEvents(ctx, id)
	if err != nil || len(notes) != 1 || notes[0].Action != "evict" || notes[0].Text != "old" {
		t.Fatalf("notes %+v, %v", notes, err)
	}
}
