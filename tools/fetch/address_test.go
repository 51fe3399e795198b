package fetch

import (
	"net/netip"
	"strings"
	"testing"
)

func TestSpecial(t *testing.T) {
	cases := []struct {
		addr string
		want string // a word of the block's name; "" for public
	}{
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.216.34", ""},
		{"0.0.0.0", "this network"},
		{"0.1.2.3", "this network"},
		{"10.1.2.3", "private"},
		{"100.64.0.1", "carrier-grade"},
		{"100.127.255.255", "carrier-grade"},
		{"100.128.0.0", ""},
		{"100.63.255.255", ""},
		{"127.0.0.1", "loopback"},
		{"127.255.255.254", "loopback"},
		{"169.254.169.254", "link-local"},
		{"169.254.0.1", "link-local"},
		{"169.255.0.1", ""},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private"},
		{"192.0.2.7", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"224.0.0.1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:7f00:1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:0.0.0.0", "this network"},
		{"::ffff:8.8.8.8", ""},
		{"::127.0.0.1", "IPv4-compatible"},
		{"::8.8.8.8", "IPv4-compatible"},
		{"64:ff9b::7f00:1", "loopback"},
		{"64:ff9b::a9fe:a9fe", "link-local"},
		{"64:ff9b::808:808", ""},
		{"2002:7f00:1::", "loopback"},
		{"2002:c0a8:101::1", "private"},
		{"fc00::1", "unique local"},
		{"fd12:3456:789a::1", "unique local"},
		{"fbff:ffff::1", ""},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"febf:ffff::1", "link-local"},
		{"fec0::1", "site-local"},
		{"ff02::1", "multicast"},
		{"2001:db8::1", "documentation"},
		{"2001::1", "IETF"},
		{"100::1", "discard"},
		{"2606:4700:4700::1111", ""},
		{"2a00:1450:4001::200e", ""},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			got := Special(netip.MustParseAddr(c.addr))
			switch {
			case c.want == "" && got != "":
				t.Fatalf("Special(%s) = %q, want public", c.addr, got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Fatalf("Special(%s) = %q, want one naming %q", c.addr, got, c.want)
			}
		})
	}
}

func TestNetworksCheck(t *testing.T) {
	ns, err := ParseNetworks([]string{"127.0.0.1/32", "10.0.0.0/8", "fd00::1"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1", true},
		{"::ffff:127.0.0.1", true}, // the mapped form of an allowed address
		{"127.0.0.2", false},
		{"::1", false},
		{"10.200.0.1", true},
		{"fd00::1", true},
		{"fd00::2", false},
		{"192.168.0.1", false},
		{"8.8.8.8", true},
	}
	for _, c := range cases {
		err := ns.Check(netip.MustParseAddr(c.addr))
		if (err == nil) != c.ok {
			t.Errorf("Check(%s) = %v, want allowed %v", c.addr, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "allow_networks") {
			t.Errorf("Check(%s) = %q: the refusal should say how to allow it", c.addr, err)
		}
	}
	var none Networks
	if err := none.Check(netip.MustParseAddr("127.0.0.1")); err == nil {
		t.Fatal("no networks allowed: loopback must be refused")
	}
}

func TestParseNetworksRejects(t *testing.T) {
	for _, s := range []string{"localhost", "10.0.0.0/33", "", "1.2.3"} {
		if _, err := ParseNetworks([]string{s}); err == nil || !strings.Contains(err.Error(), "CIDR") {
			t.Errorf("ParseNetworks(%q) = %v, want an error naming CIDR", s, err)
		}
	}
}

func TestControlRefusesResolvedAddress(t *testing.T) {
	var ns Networks
	for _, a := range []string{"127.0.0.1:80", "[::1]:443", "[::ffff:10.0.0.1]:80", "169.254.169.254:80", "0.0.0.0:8080", "[fe80::1%lo]:80"} {
		if err := ns.Control("tcp", a, nil); err == nil {
			t.Errorf("Control(%s) allowed a special-use address", a)
		}
	}
	if err := ns.Control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("Control refused a public address: %v", err)
	}
	if err := ns.Control("tcp", "not-an-address:80", nil); err == nil {
		t.Error("Control must refuse what it cannot read as an address")
	}
}
