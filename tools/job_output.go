package tools

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Names of the background-job tools.
const (
	NameJobOutput = "job_output"
	NameJobStop   = "job_stop"
)

const maxJobWait = 60 // seconds job_output may wait

type jobOutputParams struct {
	JobID       string `json:"job_id" description:"The id run_command returned when it started the job."`
	WaitSeconds int    `json:"wait_seconds,omitempty" description:"Wait up to this many seconds (max 60) for new output or the job's end before answering; 0 answers at once."`
	Filter      string `json:"filter,omitempty" description:"Optional regular expression: only new lines matching it are returned; the others are consumed."`
}

const jobOutputDesc = `Read a background job's new output (what it printed since the last read) and its state: running, or ended with its exit code. Use wait_seconds to wait for progress instead of polling in a tight loop.`

// JobState is what a job call saw, for discipline.
type JobState struct {
	ID       string
	Started  bool  // the call started the job
	Running  bool  // still running after the call
	NewBytes int64 // output bytes the call returned that no read had
	Ended    bool  // the first read to report the end
	Command  string
	ExitCode int // once ended
}

func newJobOutput(js *Jobs) Tool {
	return newTyped(NameJobOutput, jobOutputDesc, ReadOnly, func(ctx context.Context, p jobOutputParams) (Result, error) {
		j, ok := js.get(strings.TrimSpace(p.JobID))
		if !ok {
			return errResult("no background job %q: %s", p.JobID, js.ids()), nil
		}
		var re *regexp.Regexp
		if p.Filter != "" {
			var err error
			if re, err = regexp.Compile(p.Filter); err != nil {
				return errResult("filter is not a regular expression: %v", err), nil
			}
		}
		if p.WaitSeconds < 0 || p.WaitSeconds > maxJobWait {
			return errResult("wait_seconds must be between 0 and %d, not %d", maxJobWait, p.WaitSeconds), nil
		}
		js.waitFor(ctx, j, time.Duration(p.WaitSeconds)*time.Second)
		return js.read(j, re), nil
	})
}

// waitFor returns when the job has output no read has seen, has ended,
// the wait is over or ctx is done.
func (js *Jobs) waitFor(ctx context.Context, j *job, wait time.Duration) {
	if wait <= 0 {
		return
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		js.mu.Lock()
		fresh := j.out.total() > j.readAt || !j.info.Running
		js.mu.Unlock()
		if fresh {
			return
		}
		select {
		case <-j.out.wake:
		case <-j.done:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// read takes the job's new output and reports it with the job's state.
func (js *Jobs) read(j *job, re *regexp.Regexp) Result {
	js.mu.Lock()
	text, lost, end := j.out.since(j.readAt)
	fresh := end - j.readAt
	j.readAt = end
	info := j.info
	ended := !info.Running && !j.endSeen
	if !info.Running {
		j.endSeen = true
	}
	js.mu.Unlock()
	var b strings.Builder
	b.WriteString(jobStatus(info) + "\n")
	if lost > 0 {
		b.WriteString(lostNote(lost, js.opts.BufferBytes))
	}
	body := string(text)
	if re != nil {
		body = keepMatching(body, re)
	}
	switch {
	case fresh == 0:
		b.WriteString("(no new output)")
	case body == "":
		fmt.Fprintf(&b, "(%d new bytes, no line matching the filter)", fresh)
	default:
		b.WriteString(strings.TrimSuffix(body, "\n"))
	}
	st := &JobState{ID: info.ID, Running: info.Running, NewBytes: fresh, Ended: ended, Command: info.Command}
	if info.ExitCode != nil {
		st.ExitCode = *info.ExitCode
	}
	return Result{Output: b.String(), Job: st}
}

// jobStatus is the job's state in one line.
func jobStatus(info JobInfo) string {
	head := fmt.Sprintf("job %s (%s)", info.ID, info.Command)
	switch {
	case info.Running:
		return fmt.Sprintf("%s: running for %s", head, time.Since(info.Started).Round(time.Second))
	case info.StoppedBy != "":
		return fmt.Sprintf("%s: stopped by %s after %s", head, info.StoppedBy, info.Ended.Sub(info.Started).Round(time.Millisecond))
	}
	return fmt.Sprintf("%s: ended with exit code %d after %s", head, *info.ExitCode, info.Ended.Sub(info.Started).Round(time.Millisecond))
}

// keepMatching keeps the lines of s that match re.
func keepMatching(s string, re *regexp.Regexp) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if re.MatchString(strings.TrimSuffix(l, "\n")) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// ids lists the jobs a model may name, for an error.
func (js *Jobs) ids() string {
	list := js.List()
	if len(list) == 0 {
		return "no job was started in this session"
	}
	ids := make([]string, len(list))
	for i, j := range list {
		ids[i] = j.ID
	}
	return "the jobs are " + strings.Join(ids, ", ")
}

type jobStopParams struct {
	JobID string `json:"job_id" description:"The id of the background job to stop."`
}

const jobStopDesc = `Stop a background job: its command and every process it started are killed. Returns its last output and how it ended.`

func newJobStop(js *Jobs) Tool {
	return newTyped(NameJobStop, jobStopDesc, ReadOnly, func(ctx context.Context, p jobStopParams) (Result, error) {
		j, ok := js.get(strings.TrimSpace(p.JobID))
		if !ok {
			return errResult("no background job %q: %s", p.JobID, js.ids()), nil
		}
		js.stop(j, NameJobStop)
		return js.read(j, nil), nil
	})
}
