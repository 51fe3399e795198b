package llm

import (
	"encoding/json"
	"testing"
)

func TestImageMessageIsContentParts(t *testing.T) {
	img := Image{MIME: "image/png", SHA256: "ab", Width: 1, Height: 1, Data: []byte{1, 2, 3}}
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{"text and image", Message{Role: RoleUser, Content: "look", Images: []Image{img}},
			`{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID"}}]}`},
		{"image only", Message{Role: RoleUser, Images: []Image{img}},
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID"}}]}`},
		{"bytes gone", Message{Role: RoleUser, Content: "look", Images: []Image{{MIME: "image/png", SHA256: "ab"}}},
			`{"role":"user","content":[{"type":"text","text":"look\n[an image that keel no longer has]"}]}`},
	}
	for _, tt := range tests {
		got, err := encodeMessage(&tt.msg)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s:\n got %s %v\nwant %s", tt.name, got, err, tt.want)
		}
	}
}

func TestEncodeCacheSeesImageChanges(t *testing.T) {
	var c encodeCache
	a := []Message{{Role: RoleUser, Content: "x", Images: []Image{{MIME: "image/png", SHA256: "a", Data: []byte{1}}}}}
	b := []Message{{Role: RoleUser, Content: "x", Images: []Image{{MIME: "image/png", SHA256: "b", Data: []byte{2}}}}}
	first, _ := bodyBytes(c.body(Request{Model: "m", Messages: a}, 0, 0))
	second, _ := bodyBytes(c.body(Request{Model: "m", Messages: b}, 0, 0))
	if string(first) == string(second) || !json.Valid(second) {
		t.Errorf("a different image reused the cached encoding:\n%s", second)
	}
	if stored, _ := json.Marshal(a[0]); string(stored) != `{"role":"user","content":"x","images":[{"mime":"image/png","sha256":"a","width":0,"height":0}]}` {
		t.Errorf("a message's JSON (the datalog's) holds the image's bytes or lacks its reference: %s", stored)
	}
}
