package config

import "testing"

func TestAcceptsImages(t *testing.T) {
	def := Defaults()
	custom := Defaults()
	custom.Images.Models = []string{"my-vl-*"}
	tests := []struct {
		cfg   *Config
		model string
		want  bool
	}{
		{def, "gpt-4o", true},
		{def, "gpt-4o-mini", true},
		{def, "GPT-4.1-mini", true},
		{def, "openai/gpt-5", true},
		{def, "llava:13b", true},
		{def, "qwen2.5vl:7b", true},
		{def, "claude-sonnet-4-5", true},
		{def, "gpt-3.5-turbo", false},
		{def, "deepseek-chat", false},
		{def, "o3-mini", false},
		{def, "qwen2.5-coder:7b", false},
		{def, "", false},
		{custom, "my-vl-7b", true},
		{custom, "gpt-4o", false}, // setting the key replaces the list
	}
	for _, tt := range tests {
		if got := tt.cfg.AcceptsImages(tt.model); got != tt.want {
			t.Errorf("AcceptsImages(%q) = %v, want %v (models %v)", tt.model, got, tt.want, tt.cfg.Images.Models)
		}
	}
}
