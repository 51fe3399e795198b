package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSeeds are chunks as servers send them, and the odd shapes the fast
// decoder must leave to encoding/json or decode the same way.
var chunkSeeds = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"content":"hello wor"},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]}}]}`,
	`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"x\u00e9\n\""}}]}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":8}}}`,
	`{"choices":[{"index":0,"delta":{"reasoning_content":"think","reasoning":"think"},"finish_reason":"stop"}],"usage":{"prompt_cache_hit_tokens":4}}`,
	`{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[]},"finish_reason":"tool_calls"}]}`,
	`{"choices":null,"usage":null}`, `null`, `[]`, `{}`, ` {"choices" : [ null ] } `,
	`{"Choices":[{"index":1}]}`, `{"choices":[{"index":1.0}]}`, `{"choices":[{"index":1e2}]}`,
	`{"choices":[{"index":0,"index":1}]}`, `{"choices":[{"delta":{"content":"\ud83d\ude00"}}]}`,
	`{"choices":[{"delta":{"content":"a\"b\\c\/d\b\f\r\t"}}]}`, `{"x":[1,{"y":[true,false,null,-0.5e+3]}],"choices":[]}`,
	`{"choices":[{"delta":{"content":5}}]}`, `{"choices":[{"index":99999999999999999999}]}`, `{"choices":[]} x`,
	"{\"choices\":[{\"delta\":{\"content\":\"\xff\"}}]}", `{"choices":[{"delta":{"tool_calls":[{"index":null,"id":"c"}]}}]}`,
}

func FuzzFastDecodeChunk(f *testing.F) {
	for _, s := range chunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fast, std chunk
		if !fastDecodeChunk(raw, &fast) {
			return // encoding/json decides
		}
		if err := json.Unmarshal(raw, &std); err != nil {
			t.Fatalf("fast decoding took %q, encoding/json refuses it: %v", raw, err)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("%q:\nfast %+v\njson %+v", raw, fast, std)
		}
	})
}

// The shapes servers send take the fast path; the odd ones fall back.
func TestFastDecodeChunkTakesTheCommonShapes(t *testing.T) {
	for i, s := range chunkSeeds[:7] {
		var c chunk
		if !fastDecodeChunk([]byte(s), &c) {
			t.Errorf("seed %d left to encoding/json: %s", i, s)
		}
	}
	for _, s := range []string{`{"Choices":[]}`, `{"choices":[{"index":1.0}]}`, `{"choices":[{"index":0,"index":1}]}`, `{"choices":[{"delta":{"content":5}}]}`} {
		var c chunk
		if fastDecodeChunk([]byte(s), &c) {
			t.Errorf("%s took the fast path", s)
		}
	}
}
