package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/oauth2"
)

// signInEntry is what keel keeps of one server's OAuth sign-in: the
// client it registered, the authorization server's endpoints and the
// tokens, so a later run can refresh without signing in again.
type signInEntry struct {
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	AuthURL      string           `json:"auth_url"`
	TokenURL     string           `json:"token_url"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style"`
	Scopes       []string         `json:"scopes,omitempty"`
	Token        *oauth2.Token    `json:"token"`
}

func (e *signInEntry) config() *oauth2.Config {
	return &oauth2.Config{ClientID: e.ClientID, ClientSecret: e.ClientSecret, Scopes: e.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: e.AuthURL, TokenURL: e.TokenURL, AuthStyle: e.AuthStyle}}
}

// tokenStore is the 0600 JSON file of sign-ins keyed by server URL. The
// tokens go nowhere else: not the datalog, logs or child processes.
type tokenStore struct {
	path string
}

// storeMu serialises the read-modify-write of every store in the
// process (servers refresh concurrently).
var storeMu sync.Mutex

func (t tokenStore) readAll() (map[string]*signInEntry, error) {
	all := map[string]*signInEntry{}
	b, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("the OAuth token file %s is not valid JSON: %w", t.path, err)
	}
	return all, nil
}

// get is the server's sign-in, or nil.
func (t tokenStore) get(url string) (*signInEntry, error) {
	storeMu.Lock()
	defer storeMu.Unlock()
	all, err := t.readAll()
	if err != nil {
		return nil, err
	}
	return all[url], nil
}

// put stores (or, with nil, removes) the server's sign-in; it reports
// whether there was one before.
func (t tokenStore) put(url string, e *signInEntry) (bool, error) {
	storeMu.Lock()
	defer storeMu.Unlock()
	all, err := t.readAll()
	if err != nil {
		return false, err
	}
	_, had := all[url]
	if e == nil && !had {
		return false, nil
	}
	if e == nil {
		delete(all, url)
	} else {
		all[url] = e
	}
	return had, t.write(all)
}

// write replaces the file atomically, created 0600 in a 0700 directory.
func (t tokenStore) write(all map[string]*signInEntry) error {
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(t.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".mcp-oauth-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), t.path)
}

// savingSource refreshes through src and stores each new token.
type savingSource struct {
	src   oauth2.TokenSource
	store tokenStore
	url   string
	entry signInEntry

	mu   sync.Mutex
	last string // the access token last stored
}

// Token implements oauth2.TokenSource.
func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.src.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok.AccessToken != s.last {
		e := s.entry
		e.Token = tok
		if _, err := s.store.put(s.url, &e); err != nil {
			return nil, fmt.Errorf("storing the refreshed OAuth token: %w", err)
		}
		s.last = tok.AccessToken
	}
	return tok, nil
}
