package llm

import (
	"errors"
	"io"
)

// The stream should end with "data: [DONE]", but some servers (llama.cpp's
// server and proxies in front of others) end the body after the finish
// chunk, and some close the connection without the chunked encoding's end.
// An answer whose finish_reason arrived is complete however its body
// ended; without finish_reason only [DONE] makes it one (a server may
// omit finish_reason), and a body that just ends is a truncated stream.
func answerComplete(finish string, done bool, err error) bool {
	if done {
		return true
	}
	return finish != "" && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF))
}
