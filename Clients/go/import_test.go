package payrpc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goEnv is this process's environment with the given variables replaced.
func goEnv(set map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if _, replaced := set[strings.SplitN(kv, "=", 2)[0]]; !replaced {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// Another module uses this client by its module path, through the replace lines the README
// shows, and builds offline: GOFLAGS=-mod=mod, GOPROXY=off and an empty module cache. The
// README example then runs there as it does here.
func TestAnotherModuleImportsThisOneThroughReplaceLines(t *testing.T) {
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	thirdParty := filepath.Join(here, "third_party", "github.com", "xeipuuv")
	if _, err := os.Stat(filepath.Join(thirdParty, "gojsonschema", "go.mod")); err != nil {
		t.Fatalf("third_party/ is missing (run-tests.sh runs setup.sh, which writes it): %v", err)
	}
	module := t.TempDir()
	env := goEnv(map[string]string{
		"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOPATH": t.TempDir(), "GOMODCACHE": "", "GOWORK": "off",
	})
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = module
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gocmd("mod", "init", "example.com/uses-payrpc")
	gocmd("mod", "edit",
		"-replace", "github.com/payrpc/payrpc-go="+here,
		"-replace", "github.com/xeipuuv/gojsonschema="+filepath.Join(thirdParty, "gojsonschema"),
		"-replace", "github.com/xeipuuv/gojsonpointer="+filepath.Join(thirdParty, "gojsonpointer"),
		"-replace", "github.com/xeipuuv/gojsonreference="+filepath.Join(thirdParty, "gojsonreference"))
	code, output := readmeExample(t)
	program := buildExample(t, module, code, env)
	mod, err := os.ReadFile(filepath.Join(module, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "require github.com/payrpc/payrpc-go v0.0.0-00010101000000-000000000000") {
		t.Errorf("go build did not add the requirement of the replaced module:\n%s", mod)
	}
	if got := runExample(t, program, t.TempDir()); got != output {
		t.Errorf("the example printed\n%s\nthe README shows\n%s", got, output)
	}
}
