package agent

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

// Images in the history stay where they came from: on the user's prompt,
// or on the tool result that returned them. Each request decides how they
// travel: to a model that accepts images, a prompt's go as its content
// parts, and a run of tool results' go in one user message after the run
// (the chat-completions API takes images only in user messages); to one
// that does not, they are left out and the text says so.

// NoImagesError refuses a prompt with images for a model that does not
// accept images: the user hears why, instead of a provider's error.
type NoImagesError struct{ Model string }

func (e *NoImagesError) Error() string {
	return fmt.Sprintf("the model %s does not accept images; switch to one that does (/model), or add it to images.models in keel's configuration if it does", e.Model)
}

// AcceptsImages reports whether the current model takes image input
// (Options.AcceptsImages).
func (s *Session) AcceptsImages() bool {
	_, model, _ := s.live.current()
	return s.opts.AcceptsImages != nil && s.opts.AcceptsImages(model)
}

// llmImages are tool or attached images as history keeps them.
func llmImages(imgs []tools.Image) []llm.Image {
	if len(imgs) == 0 {
		return nil
	}
	out := make([]llm.Image, len(imgs))
	for i, im := range imgs {
		out[i] = llm.Image{MIME: im.MIME, SHA256: im.SHA256(), Width: im.Width, Height: im.Height, Data: im.Data}
	}
	return out
}

// countImages is how many images msgs hold.
func countImages(msgs []llm.Message) int {
	n := 0
	for i := range msgs {
		n += len(msgs[i].Images)
	}
	return n
}

// imageBytes is an image's weight in the 4-bytes-a-token estimate: about
// a token per 750 pixels, at most 1,600 (providers scale larger images
// down).
func imageBytes(imgs []llm.Image) int {
	n := 0
	for _, im := range imgs {
		n += 4 * min(max(im.Width*im.Height/750, 85), 1600)
	}
	return n
}

// appendWithImages appends hist to msgs with its images made ready for
// one request to a model that accepts images or not.
func appendWithImages(msgs, hist []llm.Message, accept bool, model string) []llm.Message {
	var pending []llm.Image
	var from []string
	for i, m := range hist {
		switch {
		case len(m.Images) == 0, accept && m.Role != llm.RoleTool: // a prompt's images go as its content parts
		case accept:
			pending = append(pending, m.Images...)
			from = append(from, fmt.Sprintf("%s (%s)", m.Name, m.ToolCallID))
			m.Images = nil
		default:
			m.Content += fmt.Sprintf("\n(%s not sent: the model %s does not take image input)", imageCount(len(m.Images)), model)
			m.Images = nil
		}
		msgs = append(msgs, m)
		endOfRun := m.Role == llm.RoleTool && (i+1 == len(hist) || hist[i+1].Role != llm.RoleTool)
		if endOfRun && len(pending) > 0 {
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Images: pending,
				Content: "The images returned by " + strings.Join(from, ", ") + ", in order:"})
			pending, from = nil, nil
		}
	}
	return msgs
}

func imageCount(n int) string {
	if n == 1 {
		return "the image"
	}
	return fmt.Sprintf("%d images", n)
}

// ImagesRefused is the error a prompt with images would get from
// SubmitImages now (nil when the current model accepts images): the TUI
// says it before taking the prompt out of the box.
func (s *Session) ImagesRefused() error {
	if s.AcceptsImages() {
		return nil
	}
	_, model, _ := s.live.current()
	return &NoImagesError{Model: model}
}
