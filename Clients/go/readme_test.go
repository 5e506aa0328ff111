package payrpc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeExample is the first ```go block of README.md.
func readmeExample(t *testing.T) string {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "```go\n")
	if start < 0 {
		t.Fatal("README.md has no ```go block")
	}
	body := text[start+len("```go\n"):]
	end := strings.Index(body, "```")
	if end < 0 {
		t.Fatal("the ```go block of README.md does not end")
	}
	return body[:end]
}

// The README's example compiles and runs as written against the real binary.
func TestReadmeExampleRuns(t *testing.T) {
	example := readmeExample(t)
	dir := ".readme-example" // inside the module, so it builds against this client; git-ignored
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cmd := exec.Command("go", "run", "./"+dir)
	cmd.Env = append(os.Environ(), "PAYRPC_BIN="+binary(t), "XDG_DATA_HOME="+home, "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run of the README example: %v\n%s", err, out)
	}
	for _, want := range []string{"Pay 10.00 EUR to Jana (+421900123456)? <nil>", "blocked: false"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}
}
