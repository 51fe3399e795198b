package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// testPNG is a w×h PNG.
func testPNG(t *testing.T, w, h int) tools.Image {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	im, err := tools.NewImage(b.Bytes(), "test.png")
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// progressTool reports two steps, then returns an image.
type progressTool struct {
	fakeTool
	img tools.Image
}

func (p *progressTool) RunProgress(_ context.Context, _ json.RawMessage, report func(tools.Progress)) (tools.Result, error) {
	report(tools.Progress{Progress: 1, Total: 2, Message: "half"})
	report(tools.Progress{Progress: 2, Total: 2})
	return tools.Result{Output: "a picture [image 4×3]", Images: []tools.Image{p.img}}, nil
}

func TestToolImagesAndProgress(t *testing.T) {
	for _, accept := range []bool{true, false} {
		t.Run(map[bool]string{true: "model accepts images", false: "model does not"}[accept], func(t *testing.T) {
			pt := &progressTool{fakeTool: fakeTool{name: "shot", class: tools.ReadOnly}, img: testPNG(t, 4, 3)}
			s, srv := newSession(t, llmtest.Rounds(
				llmtest.ToolRound(call("c1", "shot", `{}`), call("c2", "echo", `{}`)),
				llmtest.TextRound("I see it"),
			), func(o *Options) {
				o.Tools = append(o.Tools, pt)
				o.AcceptsImages = func(model string) bool { return accept && model == "fake-model" }
			})
			evs, st := runTask(t, context.Background(), s, "look")
			if st.Reason != StopCompleted {
				t.Fatalf("stop %v: %s", st.Reason, st.Message)
			}
			prog := eventsOf[ToolProgress](evs)
			if len(prog) != 2 || prog[0].Progress.Message != "half" || prog[0].CallID != "c1" {
				t.Errorf("progress events = %+v", prog)
			}
			for _, f := range eventsOf[ToolFinished](evs) {
				if f.CallID == "c1" && (len(f.Images) != 1 || len(f.Progress) != 2) {
					t.Errorf("finished = %+v", f)
				}
			}
			msgs := srv.Requests()[1].Messages
			last := msgs[len(msgs)-1]
			if accept {
				// after both tool results (the API wants them together), one user message with the image
				if last.Role != "user" || len(last.Images) != 1 || !strings.HasPrefix(last.Images[0], "data:image/png;base64,") ||
					!strings.Contains(last.Content, "shot (c1)") || msgs[len(msgs)-2].Role != "tool" || msgs[len(msgs)-3].Role != "tool" {
					t.Errorf("the request's last messages: %s / %s", msgs[len(msgs)-2].Raw, last.Raw)
				}
			} else {
				if last.Role != "tool" || !strings.Contains(msgs[len(msgs)-2].Content, "(the image not sent: the model fake-model does not take image input)") {
					t.Errorf("the request's last messages: %s / %s", msgs[len(msgs)-2].Raw, last.Raw)
				}
				for _, m := range msgs {
					if len(m.Images) > 0 {
						t.Errorf("an image went to a model that does not accept images: %s", m.Raw)
					}
				}
			}
		})
	}
}

func TestPromptImages(t *testing.T) {
	img := testPNG(t, 2, 2)
	s, srv := newSession(t, llmtest.Rounds(llmtest.TextRound("a square")), func(o *Options) {
		o.AcceptsImages = func(string) bool { return true }
	})
	if err := s.SubmitImages(context.Background(), "what is this?", []tools.Image{img}); err != nil {
		t.Fatal(err)
	}
	evs, _ := collect(t, s)
	if ts := eventsOf[TaskStarted](evs); len(ts[0].Images) != 1 {
		t.Errorf("TaskStarted = %+v", ts)
	}
	user := srv.Requests()[0].Messages[1]
	if user.Content != "what is this?" || len(user.Images) != 1 {
		t.Errorf("the prompt as sent: %s", user.Raw)
	}
	// the history keeps the image's bytes and its reference
	h := s.History()
	if im := h[0].Images; len(im) != 1 || im[0].SHA256 != img.SHA256() || im[0].Width != 2 {
		t.Errorf("history image = %+v", im)
	}

	plain, _ := newSession(t, llmtest.Rounds(llmtest.TextRound("x")), nil)
	var no *NoImagesError
	if err := plain.SubmitImages(context.Background(), "what is this?", []tools.Image{img}); !errors.As(err, &no) ||
		!strings.Contains(err.Error(), "the model fake-model does not accept images") {
		t.Errorf("a model without images: %v", err)
	}
}
