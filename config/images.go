package config

import (
	"path"
	"strings"
)

// Images holds the [images] settings: which models take image input
// (pictures from MCP tools and read_file, images attached to a prompt).
type Images struct {
	// Models are patterns (path.Match syntax, case-insensitive) of the
	// model names that accept images; setting the key replaces the list.
	Models []string `toml:"models"`
}

// defaultImageModels are the families of the common models that accept
// image input through the chat-completions API, by the names their APIs
// take. A model not matched gets a sentence instead of its images.
var defaultImageModels = []string{
	"gpt-4o*", "gpt-4.1*", "gpt-4-turbo*", "gpt-5*", "o1", "o1-2*", "o3", "o3-2*", "o3-pro*", "o4-mini*", "chatgpt-4o*",
	"claude-3*", "claude-*-4*", "claude-sonnet-4*", "claude-opus-4*", "claude-haiku-4*",
	"gemini-*", "gemma3*", "grok-*vision*", "grok-4*", "pixtral*", "mistral-small-3*", "mistral-medium*",
	"llava*", "bakllava*", "llama3.2-vision*", "llama-3.2-*vision*", "llama4*", "llama-4*",
	"qwen*vl*", "qwen2.5vl*", "minicpm-v*", "moondream*", "granite3.2-vision*", "*vision*",
}

// AcceptsImages reports whether model takes image input: whether a
// pattern of images.models matches its name, or the name after a
// provider's prefix ("openai/gpt-4o", "models/gemini-2.5-pro").
func (c *Config) AcceptsImages(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "" {
		return false
	}
	base := m[strings.LastIndexByte(m, '/')+1:]
	for _, p := range c.Images.Models {
		p = strings.ToLower(p)
		if ok, _ := path.Match(p, m); ok {
			return true
		}
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}
