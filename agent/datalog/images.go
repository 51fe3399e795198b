package datalog

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/internal/lazyre"
)

// Images: a message keeps an image's reference (type, size, SHA-256) in
// its JSON; the bytes are stored once under the hash in images, whatever
// number of messages, rounds or sessions refer to them, and
// session_images says which sessions do (Prune drops an image none uses).

// storedImage is an image's bytes to store with a round.
type storedImage struct {
	im llm.Image
}

// roundImages collects the images of msgs that carry their bytes, each
// once; one whose hash or type does not match what it claims is not
// stored (its message then says the image is gone when resumed).
func roundImages(msgs []llm.Message) []storedImage {
	var out []storedImage
	seen := map[string]bool{}
	for _, m := range msgs {
		for _, im := range m.Images {
			if seen[im.SHA256] || !genuine(im) {
				continue
			}
			seen[im.SHA256] = true
			out = append(out, storedImage{im: im})
		}
	}
	return out
}

// genuine reports an image whose bytes hash to its SHA256 and whose type
// is an image type.
func genuine(im llm.Image) bool {
	sum := sha256.Sum256(im.Data)
	return len(im.Data) > 0 && hex.EncodeToString(sum[:]) == im.SHA256 && imageMIME().MatchString(im.MIME)
}

var imageMIME = lazyre.New(`^image/[a-z0-9.+-]{1,40}$`)

// insertImages stores the round's images not stored yet and links them
// to the session.
func (p *preparedRound) insertImages(ctx context.Context, tx *wtx) error {
	for _, s := range p.images {
		im := s.im
		if _, err := tx.Exec(ctx, `INSERT OR IGNORE INTO images (sha256, mime, width, height, size, data, stored_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, im.SHA256, im.MIME, im.Width, im.Height, len(im.Data), im.Data, p.at); err != nil {
			return fmt.Errorf("store image %s: %w", im.SHA256, err)
		}
		if _, err := tx.Exec(ctx, `INSERT OR IGNORE INTO session_images (session_id, sha256) VALUES (?, ?)`,
			p.rec.Round.SessionID, im.SHA256); err != nil {
			return err
		}
	}
	return nil
}

// fillImages gives the images of msgs their bytes from the store; an
// image no longer stored keeps its reference without bytes (the request
// then says so in words).
func fillImages(ctx context.Context, q *sql.DB, msgs []llm.Message) error {
	var hashes []any
	for _, m := range msgs {
		for _, im := range m.Images {
			hashes = append(hashes, im.SHA256)
		}
	}
	if len(hashes) == 0 {
		return nil
	}
	data := map[string][]byte{}
	for start := 0; start < len(hashes); start += 500 { // SQLite's bound on parameters
		chunk := hashes[start:min(start+500, len(hashes))]
		if err := readImages(ctx, q, chunk, data); err != nil {
			return err
		}
	}
	for i := range msgs {
		if len(msgs[i].Images) == 0 {
			continue
		}
		imgs := make([]llm.Image, len(msgs[i].Images))
		for j, im := range msgs[i].Images {
			im.Data = data[im.SHA256]
			imgs[j] = im
		}
		msgs[i].Images = imgs
	}
	return nil
}

func readImages(ctx context.Context, q *sql.DB, hashes []any, into map[string][]byte) error {
	rows, err := q.QueryContext(ctx, `SELECT sha256, data FROM images WHERE sha256 IN (?`+
		strings.Repeat(", ?", len(hashes)-1)+`)`, hashes...)
	if err != nil {
		return fmt.Errorf("load images: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h string
		var b []byte
		if err := rows.Scan(&h, &b); err != nil {
			return err
		}
		into[h] = b
	}
	return rows.Err()
}

// pruneImages drops the images no session uses any more.
func pruneImages(ctx context.Context, tx *wtx) error {
	_, err := tx.Exec(ctx, `DELETE FROM images WHERE sha256 NOT IN (SELECT sha256 FROM session_images)`)
	return err
}
