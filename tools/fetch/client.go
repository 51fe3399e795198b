package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Control is the dialer's check of the address it is about to connect to,
// after DNS: a name that resolves to a private address, or resolves
// differently between two look-ups (DNS rebinding), is refused here.
func (ns Networks) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("fetch refuses to connect to %q: not an address", address)
	}
	return ns.Check(ap.Addr())
}

// newClient is an HTTP client that connects only where ns allows, follows
// at most maxRedirects redirects within the first host (each target
// checked again), uses no proxy from the environment (the proxy's address
// would be the one checked), and sends no cookies.
func newClient(ns Networks, maxRedirects int) *http.Client {
	dialer := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: -1, Control: ns.Control}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    15 * time.Second,
		ResponseHeaderTimeout:  30 * time.Second,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{Transport: tr, CheckRedirect: checkRedirect(ns, maxRedirects)}
}

// checkRedirect checks each redirect's target as the first URL was checked,
// and stops at another host or past the limit.
func checkRedirect(ns Networks, maxRedirects int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return fmt.Errorf("stopped after %d redirects (fetch.max_redirects)", maxRedirects)
		}
		t, err := CheckURL(req.URL.String(), ns)
		if err != nil {
			return fmt.Errorf("refused the redirect to %s: %w", req.URL.Redacted(), err)
		}
		first, err := HostOf(via[0].URL)
		if err != nil || first != t.Host {
			return http.ErrUseLastResponse // the policy asked for this host only: the model fetches the other itself
		}
		return nil
	}
}

// dialErr finds the refusal (the dialer's, a redirect's) in a request's
// error, so the model reads it rather than a wrapped network error.
func dialErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" && op.Err != nil {
		return op.Err
	}
	return err
}

// withTimeout bounds a whole fetch, the body's read included.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
