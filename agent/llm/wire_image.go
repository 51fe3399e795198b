package llm

import (
	"encoding/base64"
	"slices"
)

// Image is a picture in a message: image input for a model that accepts
// images. The datalog keeps the message with the image's reference (its
// type, size and SHA-256) and the bytes once per image, apart: Data is
// never part of a message's JSON.
type Image struct {
	MIME   string `json:"mime"`
	SHA256 string `json:"sha256"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Data   []byte `json:"-"`
}

// wirePart is one part of a message's content when it holds images, as
// the chat-completions API takes it: text, or an image as a data URL.
type wirePart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// wireImageMsg is a message whose content is parts.
type wireImageMsg struct {
	Role    Role       `json:"role"`
	Content []wirePart `json:"content"`
}

// encodeImageMessage renders a message with images: its text, then each
// image as a data URL. An image whose bytes are gone (a pruned datalog)
// is said in words instead.
func encodeImageMessage(m *Message) ([]byte, error) {
	w := wireImageMsg{Role: m.Role}
	text := m.Content
	for _, im := range m.Images {
		if len(im.Data) == 0 {
			text += "\n[an image that keel no longer has]"
		}
	}
	if text != "" {
		w.Content = append(w.Content, wirePart{Type: "text", Text: text})
	}
	for _, im := range m.Images {
		if len(im.Data) > 0 {
			url := "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
			w.Content = append(w.Content, wirePart{Type: "image_url", ImageURL: &imageURL{URL: url}})
		}
	}
	return marshal(w)
}

// sameImages reports whether two messages carry the same images.
func sameImages(a, b []Image) bool {
	return slices.EqualFunc(a, b, func(x, y Image) bool { return x.SHA256 == y.SHA256 && len(x.Data) == len(y.Data) })
}
