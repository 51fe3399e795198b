package tools

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileImage: an image file comes back as image input with a line
// naming it; a .png that is not an image is refused as binary, as before;
// an image over the cap is refused in words.
func TestReadFileImage(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 7, 5))); err != nil {
		t.Fatal(err)
	}
	ws := newTestWS(t, map[string]string{"shot.png": b.String(), "fake.png": "ab\x00cd", "text.png": "just text\n"})
	res := call(t, ws, Options{}, NameReadFile, m{"path": "shot.png"})
	wantOutput(t, res, false, "shot.png: [image 7×5], image/png")
	if len(res.Images) != 1 || res.Images[0].Width != 7 || !bytes.Equal(res.Images[0].Data, b.Bytes()) {
		t.Errorf("images = %+v", res.Images)
	}
	res = call(t, ws, Options{}, NameReadFile, m{"path": "fake.png"})
	wantOutput(t, res, true, "binary file")
	if len(res.Images) != 0 {
		t.Errorf("a binary that is not an image went as one: %+v", res.Images)
	}
	wantOutput(t, call(t, ws, Options{}, NameReadFile, m{"path": "text.png"}), false, "just text")
	big := filepath.Join(ws.Root(), "big.png")
	writeTestFile(t, big, "")
	if err := os.Truncate(big, MaxImageBytes+1); err != nil {
		t.Fatal(err)
	}
	wantOutput(t, call(t, ws, Options{}, NameReadFile, m{"path": "big.png"}), true, "an image of 8388609 bytes, larger than the 8.0 MB a model takes")
}
