package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/gif"  // decoders for DecodeConfig
	_ "image/jpeg" // (registered by import)
	_ "image/png"
	"net/http"
	"strings"

	_ "golang.org/x/image/webp"
)

// Image is a picture a tool returns for the model to look at (an MCP
// tool's image content, read_file on a PNG) or one the user attaches to a
// prompt. The agent sends it as image input to a model that accepts
// images and describes it in words to one that does not.
type Image struct {
	MIME          string // image/png, image/jpeg, image/gif or image/webp
	Data          []byte
	Width, Height int
	Name          string // where it came from, for the transcript: a file's path, "tool output"
}

// MaxImageBytes is the largest image keel sends to a model: providers
// refuse larger ones (OpenAI's limit is 20 MB a request).
const MaxImageBytes = 8 << 20

// imageFormats maps image.DecodeConfig's format names to MIME types, for
// the formats chat-completions servers accept.
var imageFormats = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}

// NewImage checks data is an image a model can take (PNG, JPEG, GIF or
// WebP, at most MaxImageBytes) and reads its size; the MIME type comes
// from the bytes, not from what a server claimed. The error says why not
// in words for the model.
func NewImage(data []byte, name string) (Image, error) {
	if len(data) > MaxImageBytes {
		return Image{}, fmt.Errorf("the image is %s, more than the %s a model takes", humanSize(int64(len(data))), humanSize(MaxImageBytes))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	mime, ok := imageFormats[format]
	if err != nil || !ok {
		return Image{}, fmt.Errorf("not a PNG, JPEG, GIF or WebP image (%s)", sniff(data))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Image{}, fmt.Errorf("the image has no pixels (%d×%d)", cfg.Width, cfg.Height)
	}
	return Image{MIME: mime, Data: data, Width: cfg.Width, Height: cfg.Height, Name: name}, nil
}

// sniff names what data looks like, for an error.
func sniff(data []byte) string {
	return strings.TrimSuffix(http.DetectContentType(data), "; charset=utf-8")
}

// SHA256 is the hex SHA-256 of the image's bytes: the datalog stores an
// image once under it.
func (im Image) SHA256() string {
	sum := sha256.Sum256(im.Data)
	return hex.EncodeToString(sum[:])
}

// Label is the image in words, as the transcript shows it: [image W×H].
func (im Image) Label() string {
	return fmt.Sprintf("[image %d×%d]", im.Width, im.Height)
}

// IsImagePath reports a file name whose extension is an image format a
// model can take: read_file and @mentions attach such files as images.
func IsImagePath(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return false
	}
	switch strings.ToLower(name[i+1:]) {
	case "png", "jpg", "jpeg", "gif", "webp":
		return true
	}
	return false
}
