package config

import "fmt"

// Price is what a model's tokens cost, in USD per million tokens.
type Price struct {
	InputPerMTok  float64
	OutputPerMTok float64
}

// builtinPrices are the public list prices of the common models of the
// providers keel users point it at, by the model name their APIs take, so
// spend shows without configuration. Standard tier, input tokens at the
// uncached rate (keel does not price cached tokens apart), as OpenAI
// (openai.com/api/pricing) and DeepSeek (api-docs.deepseek.com) published
// them in 2025. Written down on 2026-11-23 without checking the live pages
// again: prices change, these may be out of date. A provider's
// input_price_per_mtok and output_price_per_mtok override them; a model not
// listed has no price ("price unknown").
var builtinPrices = map[string]Price{
	// OpenAI
	"gpt-5":         {1.25, 10},
	"gpt-5-mini":    {0.25, 2},
	"gpt-5-nano":    {0.05, 0.40},
	"gpt-4.1":       {2, 8},
	"gpt-4.1-mini":  {0.40, 1.60},
	"gpt-4.1-nano":  {0.10, 0.40},
	"gpt-4o":        {2.50, 10},
	"gpt-4o-mini":   {0.15, 0.60},
	"o3":            {2, 8},
	"o3-mini":       {1.10, 4.40},
	"o4-mini":       {1.10, 4.40},
	"o1":            {15, 60},
	"gpt-4-turbo":   {10, 30},
	"gpt-3.5-turbo": {0.50, 1.50},
	// DeepSeek (one price for both since V3.2, September 2025; it has changed often)
	"deepseek-chat":     {0.28, 0.42},
	"deepseek-reasoner": {0.28, 0.42},
}

// ModelPrice returns keel's built-in list price for a model, by its exact
// name; ok is false when keel has none.
func ModelPrice(model string) (p Price, ok bool) {
	p, ok = builtinPrices[model]
	return p, ok
}

// Prices returns what the provider's tokens cost: its input_price_per_mtok
// and output_price_per_mtok when the configuration sets either (0 then
// means free, for a local server), else the built-in list price of its
// model. ok is false when neither is known.
func (c *Config) Prices(p Provider) (price Price, ok bool) {
	in, out := c.Source(providerKey(p.Name, "input_price_per_mtok")), c.Source(providerKey(p.Name, "output_price_per_mtok"))
	if in.Kind != FromDefault || out.Kind != FromDefault {
		return Price{InputPerMTok: p.InputPricePerMTok, OutputPerMTok: p.OutputPricePerMTok}, true
	}
	return ModelPrice(p.Model)
}

// listPriceNote explains an unset price key of provider name in Render:
// the built-in list price it means, or that the cost is unknown; "" for
// other keys, a set price or a provider without a model.
func (c *Config) listPriceNote(name, key string) string {
	if key != "input_price_per_mtok" && key != "output_price_per_mtok" || c.Source(providerKey(name, key)).Kind != FromDefault {
		return ""
	}
	if c.Source(providerKey(name, "input_price_per_mtok")).Kind != FromDefault || c.Source(providerKey(name, "output_price_per_mtok")).Kind != FromDefault {
		return "" // the other key is set: the configured price is used, this one as 0
	}
	model := c.Providers[name].Model
	if name == c.DefaultProvider && c.Model != "" {
		model = c.Model
	}
	if model == "" {
		return ""
	}
	price, ok := ModelPrice(model)
	switch {
	case !ok:
		return fmt.Sprintf(", which means cost unknown: keel has no list price for %s", model)
	case key == "input_price_per_mtok":
		return fmt.Sprintf(", which means keel's list price for %s, %s", model, formatFloat(price.InputPerMTok))
	}
	return fmt.Sprintf(", which means keel's list price for %s, %s", model, formatFloat(price.OutputPerMTok))
}
