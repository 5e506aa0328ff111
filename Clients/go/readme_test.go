package payrpc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// readmeBlocks finds the first ```go block of README.md and the ```text block right after it.
var readmeBlocks = regexp.MustCompile("(?s)```go\n(.*?)```\n(?:[^`]|`[^`]|``[^`])*?```text\n(.*?)```")

// readmeExample returns the README's first example and the output the README shows for it.
func readmeExample(t *testing.T) (code, output string) {
	t.Helper()
	return readmeSectionExample(t, "")
}

// readmeSectionExample returns the first example of the README's "## section" (of the whole
// README when section is "") and the output the README shows for it.
func readmeSectionExample(t *testing.T, section string) (code, output string) {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	if section != "" {
		start := strings.Index(text, "\n## "+section+"\n")
		if start < 0 {
			t.Fatalf("README.md has no section %q", section)
		}
		text = text[start:]
		if end := strings.Index(text[1:], "\n## "); end >= 0 {
			text = text[:end+1]
		}
	}
	match := readmeBlocks.FindStringSubmatch(text)
	if match == nil {
		t.Fatalf("README.md %q has no ```go example followed by a ```text block of its output", section)
	}
	return match[1], match[2]
}

// buildExample writes code as main.go in dir (inside a Go module that can import this client)
// and builds it with the environment env; it returns the program.
func buildExample(t *testing.T, dir, code string, env []string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(t.TempDir(), "example")
	cmd := exec.Command("go", "build", "-o", program, ".")
	cmd.Dir = dir
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the README example: %v\n%s", err, out)
	}
	return program
}

// runExample runs the program with the binary under test and a home, data home and temporary
// directory inside root (see leftovers); it returns what the program printed.
func runExample(t *testing.T, program, root string) string {
	t.Helper()
	for _, name := range []string{"home", "data", "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(program)
	cmd.Env = append(os.Environ(), "PAYRPC_BIN="+binary(t), "HOME="+filepath.Join(root, "home"),
		"XDG_DATA_HOME="+filepath.Join(root, "data"), "TMPDIR="+filepath.Join(root, "tmp"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the README example: %v\n%s%s", err, out, stderr.String())
	}
	return string(out)
}

// leftovers lists what runs left in the data home and the temporary directory of root.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var found []string
	for _, name := range []string{"data", "tmp"} {
		entries, err := os.ReadDir(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, entry := range entries {
			found = append(found, name+"/"+entry.Name())
		}
	}
	sort.Strings(found)
	return found
}

// The README's example compiles as written and, run three times, prints exactly the output the
// README shows every time, leaving nothing behind (each spawned server was ephemeral).
func TestReadmeExamplePrintsWhatTheReadmeShowsEveryTime(t *testing.T) {
	code, output := readmeExample(t)
	if lines := strings.Count(strings.TrimSpace(code), "\n") + 1; lines > 30 {
		t.Errorf("the example has %d lines; it should stay short", lines)
	}
	dir := ".readme-example" // inside the module, so it builds against this client; git-ignored
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	program := buildExample(t, dir, code, os.Environ())
	root := t.TempDir()
	for run := 1; run <= 3; run++ {
		if got := runExample(t, program, root); got != output {
			t.Errorf("run %d printed\n%s\nthe README shows\n%s", run, got, output)
		}
	}
	if left := leftovers(t, root); len(left) > 0 {
		t.Errorf("the runs left %v behind", left)
	}
}

// The call journal's example prints the failure message the README shows.
func TestReadmeCallJournalExamplePrintsTheFailureTheReadmeShows(t *testing.T) {
	code, output := readmeSectionExample(t, "The call journal in tests")
	dir := ".readme-calls-example" // inside the module, so it builds against this client; git-ignored
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	program := buildExample(t, dir, code, os.Environ())
	if got := runExample(t, program, t.TempDir()); got != output {
		t.Errorf("the example printed\n%s\nthe README shows\n%s", got, output)
	}
}
