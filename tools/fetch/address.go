package fetch

import (
	"fmt"
	"net/netip"
	"strings"
)

// special is one special-use block of addresses (IANA's special-purpose
// registries): none of them is a public web server's.
type special struct {
	prefix netip.Prefix
	name   string
}

func block(cidr, name string) special { return special{netip.MustParsePrefix(cidr), name} }

// specialBlocks are refused unless the configuration allows them. IPv6
// forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by
// that address first (embedded).
var specialBlocks = []special{
	block("0.0.0.0/8", "a \"this network\" address"),
	block("10.0.0.0/8", "a private address"),
	block("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
	block("127.0.0.0/8", "a loopback address"),
	block("169.254.0.0/16", "a link-local address"),
	block("172.16.0.0/12", "a private address"),
	block("192.0.0.0/24", "an IETF protocol address"),
	block("192.0.2.0/24", "a documentation address"),
	block("192.88.99.0/24", "a 6to4 relay address"),
	block("192.168.0.0/16", "a private address"),
	block("198.18.0.0/15", "a benchmarking address"),
	block("198.51.100.0/24", "a documentation address"),
	block("203.0.113.0/24", "a documentation address"),
	block("224.0.0.0/4", "a multicast address"),
	block("240.0.0.0/4", "a reserved address"),
	block("::/128", "the unspecified address"),
	block("::1/128", "a loopback address"),
	block("::/96", "an IPv4-compatible address"),
	block("64:ff9b:1::/48", "a local NAT64 address"),
	block("100::/64", "a discard-only address"),
	block("2001::/23", "an IETF protocol address"),
	block("2001:db8::/32", "a documentation address"),
	block("3fff::/20", "a documentation address"),
	block("5f00::/16", "a segment-routing address"),
	block("fc00::/7", "a unique local (private) address"),
	block("fe80::/10", "a link-local address"),
	block("fec0::/10", "a site-local address"),
	block("ff00::/8", "a multicast address"),
}

// Special names the special-use block a is in, such as "a loopback
// address"; "" for a public address. An IPv6 address that carries an IPv4
// one (::ffff:a.b.c.d, 64:ff9b::a.b.c.d, 2002:AABB:CCDD::) is judged by
// the IPv4 address it reaches.
func Special(a netip.Addr) string {
	if !a.IsValid() {
		return "not an address"
	}
	a = a.WithZone("")
	if v4, ok := embedded(a); ok {
		if s := Special(v4); s != "" {
			return s
		}
		if a.Is4In6() {
			return ""
		}
	}
	for _, b := range specialBlocks {
		if b.prefix.Contains(a) {
			return b.name
		}
	}
	return ""
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// embedded is the IPv4 address an IPv6 address leads to, if it has one.
func embedded(a netip.Addr) (netip.Addr, bool) {
	if a.Is4In6() {
		return a.Unmap(), true
	}
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// Networks are the special-use addresses the configuration lets fetch
// reach anyway (fetch.allow_networks): a loopback test server, an
// intranet.
type Networks []netip.Prefix

// ParseNetworks reads CIDR prefixes or single addresses ("127.0.0.1/32",
// "10.0.0.0/8", "::1"); a bad entry is an error naming it.
func ParseNetworks(list []string) (Networks, error) {
	var ns Networks
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			ns = append(ns, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("fetch network %q is neither an address nor a CIDR prefix such as 10.0.0.0/8", s)
		}
		ns = append(ns, netip.PrefixFrom(a, a.BitLen()))
	}
	return ns, nil
}

// contains reports an address the configuration allows; an IPv4-mapped
// IPv6 address matches the IPv4 prefixes too.
func (ns Networks) contains(a netip.Addr) bool {
	a = a.WithZone("")
	for _, p := range ns {
		if p.Contains(a) || a.Is4In6() && p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// Check refuses a special-use address the networks do not allow, with a
// sentence that says how to allow it.
func (ns Networks) Check(a netip.Addr) error {
	s := Special(a)
	if s == "" || ns.contains(a) {
		return nil
	}
	return fmt.Errorf("%s is %s, which fetch does not reach unless [fetch] allow_networks lists it", a.WithZone(""), s)
}
