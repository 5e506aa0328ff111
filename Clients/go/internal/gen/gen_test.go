package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// renderCommittedDocument renders the copy of the document in generated/; it returns the
// document too.
func renderCommittedDocument(t *testing.T) ([]byte, map[string][]byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", OutPackage, "openrpc.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw, files
}

// Every generated Go file says so on its first line, in the form Go's tools recognise.
func TestEveryGeneratedFileSaysSo(t *testing.T) {
	_, files := renderCommittedDocument(t)
	generated := regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)
	for path, src := range files {
		if strings.HasSuffix(path, ".go") && !generated.MatchString(strings.SplitN(string(src), "\n", 2)[0]) {
			t.Errorf("%s starts with %q", path, strings.SplitN(string(src), "\n", 2)[0])
		}
	}
}

// The committed generated/ is exactly what the generator writes for Schemas/openrpc.json.
func TestCommittedCodeIsCurrent(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "Schemas", "openrpc.json"))
	if err != nil {
		t.Fatalf("the repository's Schemas/openrpc.json: %v", err)
	}
	files, err := Render(raw)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "..", OutPackage)
	var committed []string
	err = filepath.Walk(out, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(out, path)
			committed = append(committed, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for path := range files {
		want = append(want, path)
	}
	sort.Strings(want)
	sort.Strings(committed)
	if strings.Join(want, " ") != strings.Join(committed, " ") {
		t.Fatalf("generated/ has %v, the generator writes %v: run generate.sh", committed, want)
	}
	for _, path := range want {
		have, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(path)))
		if !bytes.Equal(have, files[path]) {
			t.Errorf("generated/%s differs from what the generator writes: run generate.sh", path)
		}
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	raw, first := renderCommittedDocument(t)
	for i := 0; i < 3; i++ {
		again, _ := Render(raw)
		for path, data := range first {
			if !bytes.Equal(again[path], data) {
				t.Fatalf("%s differs between two runs", path)
			}
		}
	}
}

func TestExportedNames(t *testing.T) {
	cases := map[string]string{
		"fullName": "FullName", "orderID": "OrderID", "popupId": "PopupID", "isCFIAppAvailable": "IsCFIAppAvailable",
		"showPBBAPopup": "ShowPBBAPopup", "NOT_SERVING": "NotServing", "street_n1": "StreetN1", "1Click disabled": "E1ClickDisabled",
		"backendURL": "BackendURL", "moreAboutAndBankLogos": "MoreAboutAndBankLogos", "logoUrlPath": "LogoURLPath",
	}
	for in, want := range cases {
		if got := exported(in); got != want {
			t.Errorf("exported(%q) = %q, want %q", in, got, want)
		}
	}
	if got := errorName("Wrong PIN"); got != "WrongPINError" {
		t.Errorf("errorName: %q", got)
	}
	if got := errorName("Execute payment error"); got != "ExecutePaymentError" {
		t.Errorf("errorName: %q", got)
	}
	if got := methodGoName("sandbox.tatra.resetProfile"); got != "TatraResetProfile" {
		t.Errorf("methodGoName: %q", got)
	}
}

func TestClashesAreReported(t *testing.T) {
	doc := `{"methods": [], "components": {"schemas": {
		"svc.A": {"type": "object", "properties": {"image": {"type": "string"}, "Image": {"type": "string"}}}}}}`
	if _, err := Render([]byte(doc)); err == nil || !strings.Contains(err.Error(), "both become the field Image") {
		t.Fatalf("want a field clash error, got %v", err)
	}
	doc = `{"methods": [
		{"name": "svc.doIt", "params": [{"name": "a", "required": true, "schema": {"type": "string"}}], "result": {"schema": {"type": "null"}}}],
		"components": {"schemas": {"svc.DoItParams": {"type": "object", "properties": {"b": {"type": "string"}}}}}}`
	if _, err := Render([]byte(doc)); err == nil || !strings.Contains(err.Error(), "clashes") {
		t.Fatalf("want a params clash error, got %v", err)
	}
}

func TestMoneyIsADecimalAndOptionalFieldsArePointers(t *testing.T) {
	doc := `{"methods": [
		{"name": "shop.buy", "params": [
			{"name": "amount", "required": true, "schema": {"type": "string", "pattern": "^-?(0(\\.[0-9]{1,18})?|[1-9](\\.[0-9]{1,17})?|[1-9][0-9]{1}(\\.[0-9]{1,16})?|[1-9][0-9]{2}(\\.[0-9]{1,15})?|[1-9][0-9]{3}(\\.[0-9]{1,14})?|[1-9][0-9]{4}(\\.[0-9]{1,13})?|[1-9][0-9]{5}(\\.[0-9]{1,12})?|[1-9][0-9]{6}(\\.[0-9]{1,11})?|[1-9][0-9]{7}(\\.[0-9]{1,10})?|[1-9][0-9]{8}(\\.[0-9]{1,9})?|[1-9][0-9]{9}(\\.[0-9]{1,8})?|[1-9][0-9]{10}(\\.[0-9]{1,7})?|[1-9][0-9]{11}(\\.[0-9]{1,6})?|[1-9][0-9]{12}(\\.[0-9]{1,5})?|[1-9][0-9]{13}(\\.[0-9]{1,4})?|[1-9][0-9]{14}(\\.[0-9]{1,3})?|[1-9][0-9]{15}(\\.[0-9]{1,2})?|[1-9][0-9]{16}(\\.[0-9]{1,1})?|[1-9][0-9]{17})$"}},
			{"name": "note", "required": false, "schema": {"type": "string"}}],
		 "result": {"schema": {"$ref": "#/components/schemas/shop.Receipt"}},
		 "errors": [{"code": -34000, "message": "Out of stock", "data": {"$ref": "#/components/schemas/shop.Stock"}}]}],
		"components": {"schemas": {
			"shop.Receipt": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}},
			"shop.Stock": {"type": "object", "properties": {"left": {"type": "integer"}}}}}}`
	files, err := Render([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	params := string(files["shop/params.go"])
	for _, want := range []string{"Amount wire.Decimal `json:\"amount\"`", "Note   *string      `json:\"note,omitempty\"`"} {
		if !strings.Contains(params, want) {
			t.Errorf("params.go lacks %q:\n%s", want, params)
		}
	}
	if service := string(files["shop/service.go"]); !strings.Contains(service, "func (s *Service) Buy(ctx context.Context, params BuyParams, opts ...wire.CallOption) (*Receipt, error)") {
		t.Errorf("service.go:\n%s", service)
	}
	if errs := string(files["shop/errors.go"]); !strings.Contains(errs, "type OutOfStockError struct") || !strings.Contains(errs, "Detail Stock") {
		t.Errorf("errors.go:\n%s", errs)
	}
	if models := string(files["shop/models.go"]); !strings.Contains(models, "*time.Time") {
		t.Errorf("an optional date-time is not a *time.Time:\n%s", models)
	}
}
