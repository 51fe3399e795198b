package fetch

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	cases := []struct {
		raw      string
		host     string // "" when refused
		errWords string
	}{
		{"https://go.dev/doc/effective_go", "go.dev", ""},
		{"  https://Go.Dev./doc#intro ", "go.dev", ""},
		{"http://example.com:8080/x?q=1", "example.com", ""},
		{"https://bücher.example/", "xn--bcher-kva.example", ""},
		{"https://[2606:4700:4700::1111]/", "2606:4700:4700::1111", ""},
		{"https://8.8.8.8/", "8.8.8.8", ""},
		{"", "", "empty"},
		{"ftp://example.com/file", "", "http and https"},
		{"file:///etc/passwd", "", "http and https"},
		{"javascript:alert(1)", "", "http and https"},
		{"example.com/page", "", "http and https"},
		{"https://user:pw@example.com/", "", "credentials"},
		{"https:///path", "", "no host"},
		{"http://127.0.0.1:8080/", "", "loopback"},
		{"http://[::1]/", "", "loopback"},
		{"http://[::ffff:127.0.0.1]/", "", "loopback"},
		{"http://0.0.0.0/", "", "this network"},
		{"http://169.254.169.254/latest/meta-data/", "", "link-local"},
		{"http://100.64.1.1/", "", "carrier-grade"},
		{"http://[fd00::1]/", "", "unique local"},
		{"http://[fe80::1%25eth0]/", "", "zone"},
		{"http://10.0.0.1/", "", "private"},
		{"https://" + strings.Repeat("a", maxURL), "", "at most"},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			got, err := CheckURL(c.raw, nil)
			if c.host == "" {
				if err == nil || !strings.Contains(err.Error(), c.errWords) {
					t.Fatalf("CheckURL(%q) = %v, %v; want an error with %q", c.raw, got.URL, err, c.errWords)
				}
				return
			}
			if err != nil || got.Host != c.host {
				t.Fatalf("CheckURL(%q) = %q, %v; want host %q", c.raw, got.Host, err, c.host)
			}
			if got.URL.Fragment != "" {
				t.Fatalf("the fragment is not sent: %s", got.URL)
			}
		})
	}
}

func TestCheckURLAllowedNetwork(t *testing.T) {
	ns, _ := ParseNetworks([]string{"127.0.0.1"})
	if _, err := CheckURL("http://127.0.0.1:9/", ns); err != nil {
		t.Fatalf("an allowed address was refused: %v", err)
	}
	if _, err := CheckURL("http://127.0.0.2:9/", ns); err == nil {
		t.Fatal("127.0.0.2 is not in the allowed network")
	}
}

func TestDomainMatch(t *testing.T) {
	cases := []struct {
		pattern, host string
		want          bool
	}{
		{"example.com", "example.com", true},
		{"Example.COM.", "example.com", true},
		{"example.com", "www.example.com", false},
		{"example.com", "notexample.com", false},
		{"*.example.com", "docs.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "evilexample.com", false},
		{"bücher.example", "xn--bcher-kva.example", true},
		{"127.0.0.1", "127.0.0.1", true},
		{"[::1]", "::1", true},
		{"*", "example.com", false},
		{"*.com*", "a.com", false},
		{"", "", false},
	}
	for _, c := range cases {
		if got := DomainMatch(c.pattern, c.host); got != c.want {
			t.Errorf("DomainMatch(%q, %q) = %v, want %v", c.pattern, c.host, got, c.want)
		}
	}
}

func TestNormalizeDomainRejects(t *testing.T) {
	for _, p := range []string{"", "*", "*.", "https://example.com", "example.com/docs", "a b", "ex*ample.com", "user@example.com", "example.com:80", "*.127.0.0.1x*"} {
		if _, err := NormalizeDomain(p); err == nil {
			t.Errorf("NormalizeDomain(%q) accepted it", p)
		}
	}
}

// FuzzCheckURL: whatever the string, CheckURL never panics, and what it
// accepts is an http(s) URL with a host as HostOf names it, no
// credentials, and no special-use address literal; the policy's domain
// match of that host with itself holds.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://go.dev/doc", "http://127.0.0.1/", "http://[::ffff:7f00:1]:80/", "http://0x7f.1/",
		"http://[fe80::1%25lo]/", "https://a@b/", "HTTP://EXAMPLE.COM./", "http://2130706433/", "https://xn--bcher-kva.example/",
		"http://[64:ff9b::a9fe:a9fe]/", "http://[2002:7f00:1::]/", "https://%65xample.com/", "http://\u2488.com/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := CheckURL(raw, nil)
		if err != nil {
			return
		}
		u := tg.URL
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted scheme %q", u.Scheme)
		}
		if u.User != nil {
			t.Fatalf("accepted credentials in %q", raw)
		}
		if tg.Host == "" {
			t.Fatalf("accepted %q without a host", raw)
		}
		if a, err := netip.ParseAddr(tg.Host); err == nil && Special(a) != "" {
			t.Fatalf("accepted %q, which names %s (%s)", raw, a, Special(a))
		}
		again, err := url.Parse(u.String())
		if err != nil {
			t.Fatalf("the checked URL %q does not parse again: %v", u, err)
		}
		if h, err := HostOf(again); err != nil || h != tg.Host {
			t.Fatalf("the request's host %q (%v) is not the one judged, %q", h, err, tg.Host)
		}
		if !DomainMatch(tg.Host, tg.Host) {
			t.Fatalf("a host %q is not covered by itself as a pattern", tg.Host)
		}
	})
}

// FuzzSpecial: an IPv4 address and its IPv4-mapped IPv6 form are judged
// alike, and an allowed network lets exactly its own addresses through.
func FuzzSpecial(f *testing.F) {
	f.Add([]byte{127, 0, 0, 1})
	f.Add([]byte{169, 254, 169, 254})
	f.Add([]byte{8, 8, 8, 8})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 {
			return
		}
		v4 := netip.AddrFrom4([4]byte(b[:4]))
		mapped := netip.AddrFrom16(v4.As16())
		if (Special(v4) == "") != (Special(mapped) == "") {
			t.Fatalf("%s is %q but %s is %q", v4, Special(v4), mapped, Special(mapped))
		}
		ns := Networks{netip.PrefixFrom(v4, 32)}
		if ns.Check(v4) != nil || ns.Check(mapped) != nil {
			t.Fatalf("%s allowed by its own network was refused", v4)
		}
	})
}
