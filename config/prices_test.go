package config

import (
	"strings"
	"testing"
)

func TestPrices(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		flags []Override
		want  Price
		known bool
	}{
		{"the default model's list price", "", nil, Price{0.40, 1.60}, true},
		{"--model picks another list price", "", []Override{{"model", "gpt-4o"}}, Price{2.50, 10}, true},
		{"a model keel has no price for", "", []Override{{"model", "my-finetune"}}, Price{}, false},
		{"the provider's keys override the list", lines(`[providers.openai]`, `input_price_per_mtok = 1`, `output_price_per_mtok = 2`), nil, Price{1, 2}, true},
		{"one key set is the configured price", lines(`[providers.openai]`, `output_price_per_mtok = 3`), nil, Price{0, 3}, true},
		{"a local server with no price", lines(`default_provider = "ollama"`, `[providers.ollama]`, `model = "qwen2.5-coder"`), nil, Price{}, false},
		{"a local server set free", lines(`default_provider = "ollama"`, `[providers.ollama]`, `model = "qwen2.5-coder"`, `input_price_per_mtok = 0`), nil, Price{}, true},
		{"a provider of the user's own by model name", lines(`default_provider = "deepseek"`, `[providers.deepseek]`, `base_url = "https://api.deepseek.com/v1"`, `model = "deepseek-chat"`), nil, Price{0.28, 0.42}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			writeFile(t, w.userFile, tt.file)
			c, _ := w.load(t, tt.flags...)
			p, err := c.ActiveProvider()
			if err != nil {
				t.Fatal(err)
			}
			if got, known := c.Prices(p); got != tt.want || known != tt.known {
				t.Errorf("Prices(%s) = %+v, %v; want %+v, %v", p.Model, got, known, tt.want, tt.known)
			}
		})
	}
}

// TestBuiltinPricesAreSane guards the table against typos: every price
// positive, output no cheaper than input.
func TestBuiltinPricesAreSane(t *testing.T) {
	for model, p := range builtinPrices {
		if p.InputPerMTok <= 0 || p.OutputPerMTok < p.InputPerMTok || p.OutputPerMTok > 100 {
			t.Errorf("%s: %+v", model, p)
		}
	}
	if _, ok := ModelPrice(DefaultOpenAIModel); !ok {
		t.Errorf("the default model %s has no price", DefaultOpenAIModel)
	}
}

// TestRenderSaysWhatAnUnsetPriceMeans: keel config names the list price an
// unset price key stands for, or that the cost is unknown.
func TestRenderSaysWhatAnUnsetPriceMeans(t *testing.T) {
	for _, tt := range []struct {
		model string
		want  string
	}{
		{"", "input_price_per_mtok = 0.0  # default, which means keel's list price for gpt-4.1-mini, 0.4\n"},
		{"o3", "output_price_per_mtok = 0.0  # default, which means keel's list price for o3, 8.0\n"},
		{"my-finetune", "input_price_per_mtok = 0.0  # default, which means cost unknown: keel has no list price for my-finetune\n"},
	} {
		w := newWorld(t)
		var flags []Override
		if tt.model != "" {
			flags = append(flags, Override{"model", tt.model})
		}
		c, _ := w.load(t, flags...)
		if out := Render(c); !strings.Contains(out, tt.want) {
			t.Errorf("model %q: Render lacks %q:\n%s", tt.model, tt.want, out)
		}
	}
}
