package tools

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Background jobs: run_command with background true starts a command and
// returns at once; job_output reads what it printed since the last read
// and its state; job_stop ends it. Jobs run exactly as run_command's
// commands do (the same sandbox, environment and permission check, which
// sees the same command), each in its own process group whose whole tree
// is killed when the job is stopped or the session ends. Output is kept
// in a bounded ring per job, and the number of jobs running at once is
// bounded.

// Defaults of JobsOptions.
const (
	DefaultMaxJobs   = 8
	DefaultJobBuffer = 1 << 20
	maxJobsKept      = 64 // ended jobs are forgotten past this, oldest first
)

// JobsOptions bounds a session's jobs.
type JobsOptions struct {
	MaxRunning  int // jobs running at once; 0: DefaultMaxJobs
	BufferBytes int // output kept per job; 0: DefaultJobBuffer
}

// JobInfo is a job as the TUI, the datalog and events show it.
type JobInfo struct {
	ID          string
	Command     string
	Workdir     string // as given ("" the workspace's root)
	Started     time.Time
	Ended       time.Time // zero while it runs
	Running     bool
	ExitCode    *int   // set once it ended
	StoppedBy   string // "job_stop" or "session end" when keel stopped it
	OutputBytes int64  // everything it printed
}

// Jobs is one session's background jobs. It is safe for concurrent use.
type Jobs struct {
	opts     JobsOptions
	onChange func(JobInfo) // set once by Notify
	launch   func(ctx context.Context, command, dir string, readOnly bool) (*exec.Cmd, func(), error)
	startCmd func(*exec.Cmd) error // starts what launch made (the sandbox's Start)
	mu       sync.Mutex
	next     int
	jobs     map[string]*job
	closed   bool
}

// job is one background command.
type job struct {
	info    JobInfo // guarded by Jobs.mu
	out     *jobBuffer
	cancel  context.CancelFunc
	done    chan struct{} // closed when the process tree is gone
	readAt  int64         // what the model has read, guarded by Jobs.mu
	endSeen bool          // a read has reported the end, guarded by Jobs.mu
}

// NewJobs returns an empty set of jobs.
func NewJobs(opts JobsOptions) *Jobs {
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxJobs
	}
	if opts.BufferBytes <= 0 {
		opts.BufferBytes = DefaultJobBuffer
	}
	return &Jobs{opts: opts, jobs: map[string]*job{}}
}

// errTooMany and errClosed are the refusals Start can give.
var (
	errTooMany = errors.New("too many background jobs")
	errClosed  = errors.New("the session is ending")
)

// start launches command in dir (absolute) as a new job, in the read-only
// sandbox unless the call that started it was approved to write.
func (js *Jobs) start(command, dir, workdir string, readOnly bool) (JobInfo, error) {
	js.mu.Lock()
	if js.closed {
		js.mu.Unlock()
		return JobInfo{}, errClosed
	}
	if js.running() >= js.opts.MaxRunning {
		js.mu.Unlock()
		return JobInfo{}, fmt.Errorf("%w: %d are running, the most at once; stop one with job_stop first", errTooMany, js.opts.MaxRunning)
	}
	js.next++
	id := strconv.Itoa(js.next)
	ctx, cancel := context.WithCancel(context.Background()) // the job outlives the call that started it
	j := &job{info: JobInfo{ID: id, Command: command, Workdir: workdir, Started: time.Now(), Running: true},
		out: newJobBuffer(js.opts.BufferBytes), cancel: cancel, done: make(chan struct{})}
	cmd, done, err := js.launch(ctx, command, dir, readOnly)
	if err == nil {
		cmd.Stdout, cmd.Stderr = j.out, j.out
		if err = js.startCmd(cmd); err != nil {
			done()
		}
	}
	if err != nil {
		js.next--
		js.mu.Unlock()
		cancel()
		return JobInfo{}, err
	}
	js.jobs[id] = j
	js.forgetOld()
	info := j.info
	js.mu.Unlock()
	go js.wait(j, cmd, done)
	js.changed(info)
	return info, nil
}

// wait reaps the job, kills what its process group left, and records
// the end.
func (js *Jobs) wait(j *job, cmd *exec.Cmd, done func()) {
	err := cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // anything left in its group
	done()                                              // the sandbox's clean-up, as for a command
	code := cmd.ProcessState.ExitCode()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) && code == 0 {
		code = -1
	}
	js.mu.Lock()
	j.info.Running, j.info.Ended, j.info.ExitCode = false, time.Now(), &code
	j.info.OutputBytes = j.out.total()
	info := j.info
	js.mu.Unlock()
	js.changed(info) // before a read can report the end, so the report follows it
	j.cancel()
	close(j.done)
	j.out.Write(nil) // wake a reader waiting for the end
}

// running counts the jobs still running. Call with mu held.
func (js *Jobs) running() int {
	n := 0
	for _, j := range js.jobs {
		if j.info.Running {
			n++
		}
	}
	return n
}

// forgetOld drops the oldest ended jobs past maxJobsKept. Call with mu held.
func (js *Jobs) forgetOld() {
	for len(js.jobs) > maxJobsKept {
		oldest := ""
		for id, j := range js.jobs {
			if !j.info.Running && (oldest == "" || j.info.Started.Before(js.jobs[oldest].info.Started)) {
				oldest = id
			}
		}
		if oldest == "" {
			return
		}
		delete(js.jobs, oldest)
	}
}

// Notify sets the function that hears of every job that starts or ends
// (on the job's own goroutine for an end). Set it before the first job.
func (js *Jobs) Notify(fn func(JobInfo)) {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.onChange = fn
}

func (js *Jobs) changed(info JobInfo) {
	js.mu.Lock()
	fn := js.onChange
	js.mu.Unlock()
	if fn != nil {
		fn(info)
	}
}

// get returns the job with id.
func (js *Jobs) get(id string) (*job, bool) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.jobs[id]
	return j, ok
}

// stop kills a job's process tree and waits until it is gone. by says
// who stopped it. Stopping an ended job does nothing.
func (js *Jobs) stop(j *job, by string) {
	js.mu.Lock()
	if j.info.Running && j.info.StoppedBy == "" {
		j.info.StoppedBy = by
	}
	js.mu.Unlock()
	j.cancel()
	<-j.done
}

// StopAll stops every running job and waits for their process trees to
// die; no job can start after it. The session calls it when it ends.
func (js *Jobs) StopAll() {
	js.mu.Lock()
	js.closed = true
	var all []*job
	for _, j := range js.jobs {
		all = append(all, j)
	}
	js.mu.Unlock()
	var wg sync.WaitGroup
	for _, j := range all {
		wg.Go(func() { js.stop(j, "session end") })
	}
	wg.Wait()
}

// List returns every job kept, oldest first.
func (js *Jobs) List() []JobInfo {
	js.mu.Lock()
	defer js.mu.Unlock()
	out := make([]JobInfo, 0, len(js.jobs))
	for _, j := range js.jobs {
		info := j.info
		if info.Running {
			info.OutputBytes = j.out.total()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Started.Before(out[b].Started) })
	return out
}

// Running is how many jobs are running.
func (js *Jobs) Running() int {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.running()
}
