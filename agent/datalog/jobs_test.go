package datalog

import (
	"context"
	"testing"
	"time"
)

// A job's start and end make one row; the command is redacted.
func TestWriteJob(t *testing.T) {
	db := openTest(t, secOptions())
	ctx := context.Background()
	id := startTest(t, db, Session{ProjectRoot: "/w"})
	start := time.Unix(1700000000, 0)
	j := Job{SessionID: id, ID: "1", Command: "make serve KEY=" + secEnvKey, Started: start}
	if err := db.WriteJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	end, code := start.Add(3*time.Second), 143
	j.Ended, j.ExitCode, j.StoppedBy, j.OutputBytes = &end, &code, "job_stop", 512
	if err := db.WriteJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	got, err := db.Jobs(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Ended == nil || !got[0].Ended.Equal(end) || *got[0].ExitCode != 143 || got[0].StoppedBy != "job_stop" || got[0].OutputBytes != 512 {
		t.Fatalf("jobs %+v", got)
	}
	if got[0].Command == j.Command {
		t.Errorf("the command was stored unredacted: %q", got[0].Command)
	}
}
