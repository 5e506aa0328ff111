package gen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Write renders the document at schemaPath into the folder out: it writes the files whose
// content changed, removes generated files no longer produced (and folders left empty), and
// returns the paths written, relative to out.
func Write(schemaPath, out string) ([]string, error) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	files, err := Render(raw)
	if err != nil {
		return nil, err
	}
	if err := removeStale(out, files); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	var written []string
	for _, path := range paths {
		target := filepath.Join(out, filepath.FromSlash(path))
		if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, files[path]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(target, files[path], 0o644); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}

// removeStale deletes the files under out that this generator wrote before (Go files with its
// header, the document copy) and does not write now.
func removeStale(out string, keep map[string][]byte) error {
	var dirs []string
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == out {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(out, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				dirs = append(dirs, path)
			}
			return nil
		}
		if _, ok := keep[rel]; ok {
			return nil
		}
		if rel == "openrpc.json" || isGenerated(path) {
			return os.Remove(path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if entries, err := os.ReadDir(dirs[i]); err == nil && len(entries) == 0 {
			_ = os.Remove(dirs[i])
		}
	}
	return nil
}

func isGenerated(path string) bool {
	if filepath.Ext(path) != ".go" {
		return false
	}
	data, err := os.ReadFile(path)
	return err == nil && bytes.HasPrefix(data, []byte(Header))
}
