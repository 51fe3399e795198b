package fetch

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// maxURL bounds a URL's length: longer ones are more likely data on its
// way out than a page's address.
const maxURL = 8192

// Target is a URL fetch may request: http or https, no credentials, a
// host, and no special-use address written into it.
type Target struct {
	URL  *url.URL
	Host string // the host as the policy names it: lower case, IDNA ASCII, no port or trailing dot
}

// CheckURL reads raw as a URL fetch may request: http(s), a host, no user
// name or password, and an address literal only when it is public or the
// networks allow it. A host name is resolved only when connecting, where
// the dialer checks the address it got (Dialer).
func CheckURL(raw string, ns Networks) (Target, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Target{}, errors.New("url is empty: give a page's address, such as https://example.com/docs")
	}
	if len(raw) > maxURL {
		return Target{}, fmt.Errorf("the url is %d bytes long; fetch takes at most %d", len(raw), maxURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, fmt.Errorf("the url cannot be read: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Target{}, fmt.Errorf("fetch reads http and https urls, not %q", raw)
	}
	if u.User != nil {
		return Target{}, errors.New("the url carries a user name or password; fetch sends no credentials")
	}
	host, err := HostOf(u)
	if err != nil {
		return Target{}, err
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if err := ns.Check(a); err != nil {
			return Target{}, err
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return Target{URL: u, Host: host}, nil
}

// HostOf is u's host as permissions name it: lower case, international
// names in their ASCII form, no port, no trailing dot, IPv6 without
// brackets or zone.
func HostOf(u *url.URL) (string, error) {
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if h == "" {
		return "", errors.New("the url has no host")
	}
	if a, err := netip.ParseAddr(h); err == nil {
		if a.Zone() != "" {
			return "", errors.New("the url names an address with a zone; fetch reaches no link-local address")
		}
		return a.String(), nil
	}
	ascii, err := idna.Lookup.ToASCII(h)
	if err == nil && (ascii == "" || strings.HasPrefix(ascii, ".") || strings.HasSuffix(ascii, ".") || strings.Contains(ascii, "..")) {
		err = errors.New("it has an empty label")
	}
	if err != nil {
		return "", fmt.Errorf("the url's host %q is not a valid name: %v", h, err)
	}
	return ascii, nil
}

// DomainMatch reports whether host (as HostOf gives it) is covered by
// pattern: the same host, or, for "*.example.com", any name below
// example.com (not example.com itself). A pattern that is not valid
// covers nothing.
func DomainMatch(pattern, host string) bool {
	pattern, err := NormalizeDomain(pattern)
	if err != nil {
		return false
	}
	if rest, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+rest)
	}
	return pattern == host
}

// NormalizeDomain checks an allow_domains entry or a fetch:PATTERN rule (a
// host name, an address, or *.domain) and returns it as HostOf names
// hosts: lower case, ASCII, no trailing dot.
func NormalizeDomain(p string) (string, error) {
	q := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(p)), ".")
	wild := strings.HasPrefix(q, "*.")
	q = strings.TrimPrefix(q, "*.")
	if a, err := netip.ParseAddr(strings.Trim(q, "[]")); err == nil && !wild && a.Zone() == "" {
		return a.String(), nil
	}
	bad := fmt.Errorf("fetch domain %q is not a host name, an address or *.domain", p)
	if q == "" || strings.ContainsAny(q, "*/:@[]% \t") {
		return "", bad
	}
	ascii, err := idna.Lookup.ToASCII(q)
	if err != nil || ascii == "" || strings.HasPrefix(ascii, ".") || strings.HasSuffix(ascii, ".") || strings.Contains(ascii, "..") {
		return "", bad
	}
	if wild {
		ascii = "*." + ascii
	}
	return ascii, nil
}
