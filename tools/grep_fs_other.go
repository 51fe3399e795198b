//go:build !linux

package tools

// openGrepFS opens the tree at base for reading (openDir checks it is base).
func openGrepFS(base string) (grepFS, error) {
	r, err := openDir(base)
	if err != nil {
		return nil, err
	}
	return rootFS{root: r}, nil
}
