// The Go peer of bench/peers: `rpc.health` and a validated `tatra.executePayment` over
// newline-delimited JSON-RPC 2.0 on TCP, with Go's standard library only (net, encoding/json,
// regexp), one goroutine per connection.
//
// Usage: go build -o peer-go peer.go && ./peer-go --port N
//
//	--schema Schemas/models/tatra.ExecutePaymentParams.json
//	--sandbox Sources/TatraService/Resources/tatra-sandbox.json
//
// Prints `listening PORT` once bound (port 0 picks one). It checks what peer.py checks, in the same
// order (docs/benchmarks.md, "Beside the peers").
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"net"
	"os"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

type violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type tatraErrorData struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Fatal   bool   `json:"fatal"`
	Title   string `json:"title"`
	Message string `json:"message"`
}

type request struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// contactIn and paramsIn are the fast path: one typed json.Unmarshal (with unknown members
// refused) for a payment whose members all have the right types; anything else goes the slow way
// (checker), which collects every violation.
type contactIn struct {
	FullName *string  `json:"fullName"`
	Phones   []string `json:"phones"`
	Phone    *string  `json:"phone"`
	Image    *string  `json:"image"`
	Icon     *string  `json:"icon"`
}

type paramsIn struct {
	Amount              *string    `json:"amount"`
	Contact             *contactIn `json:"contact"`
	Recepient           *contactIn `json:"recepient"`
	Reference           *string    `json:"reference"`
	MessageForRecipient *string    `json:"messageForRecipient"`
}

// fast decodes a payment that breaks no rule of the schema; ok is false for anything else
// (then the checker reports why).
func (r *rules) fast(raw json.RawMessage) (amount, name string, phones []string, reference *string, ok bool) {
	var in paramsIn
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	if kind(raw) != "object" || decoder.Decode(&in) != nil || in.Amount == nil || (in.Contact == nil) == (in.Recepient == nil) ||
		(in.Reference != nil && in.MessageForRecipient != nil) || !r.amount.MatchString(*in.Amount) {
		return
	}
	contact := in.Contact
	if contact == nil {
		contact = in.Recepient
	}
	if contact.FullName == nil || *contact.FullName == "" || (contact.Phones == nil) == (contact.Phone == nil) ||
		(contact.Image != nil && contact.Icon != nil) {
		return
	}
	phones = contact.Phones
	if contact.Phone != nil {
		phones = []string{*contact.Phone}
	}
	reference = in.Reference
	if reference == nil {
		reference = in.MessageForRecipient
	}
	return *in.Amount, *contact.FullName, phones, reference, true
}

type rules struct {
	amount            *regexp.Regexp
	amountMessage     string
	phone             *regexp.Regexp
	description       *regexp.Regexp
	descriptionLength int
	minText, maxText  string
	minCents          int64
	maxCents          int64
	currency          string
	ownerPhone        string
	texts             map[string]string
}

var params = map[string]bool{"amount": true, "contact": true, "recepient": true, "reference": true, "messageForRecipient": true}
var contactMembers = map[string]bool{"fullName": true, "phones": true, "phone": true, "image": true, "icon": true}

func load(schemaPath, sandboxPath string) *rules {
	var schema struct {
		Properties struct {
			Amount struct {
				Pattern string `json:"pattern"`
				Format  string `json:"x-format"`
			} `json:"amount"`
		} `json:"properties"`
	}
	var sandbox struct {
		Setup struct {
			Phone   string `json:"phoneValidationRegex"`
			Desc    string `json:"descriptionValidationRegex"`
			DescLen int    `json:"descriptionValidationLength"`
			Min     string `json:"minTransactionAmount"`
			Max     string `json:"maxTransactionAmount"`
		} `json:"setup"`
		Currency string                 `json:"currency"`
		Owner    struct{ Phone string } `json:"owner"`
		Texts    map[string]string      `json:"texts"`
	}
	for path, into := range map[string]any{schemaPath: &schema, sandboxPath: &sandbox} {
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, into)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "peer-go:", path, err)
			os.Exit(2)
		}
	}
	min, _ := cents(sandbox.Setup.Min)
	max, _ := cents(sandbox.Setup.Max)
	return &rules{
		amount:        regexp.MustCompile(schema.Properties.Amount.Pattern),
		amountMessage: "must be " + schema.Properties.Amount.Format,
		phone:         regexp.MustCompile(sandbox.Setup.Phone),
		// RE2 has \p{L} and \p{N}; `\-` inside a class is the same as in ICU.
		description:       regexp.MustCompile(sandbox.Setup.Desc),
		descriptionLength: sandbox.Setup.DescLen,
		minText:           sandbox.Setup.Min, maxText: sandbox.Setup.Max,
		minCents: min, maxCents: max,
		currency: sandbox.Currency, ownerPhone: sandbox.Owner.Phone, texts: sandbox.Texts,
	}
}

// cents is the amount in cents when it has at most two decimals (trailing zeros aside).
func cents(text string) (int64, bool) {
	negative := strings.HasPrefix(text, "-")
	whole, fraction, _ := strings.Cut(strings.TrimPrefix(text, "-"), ".")
	fraction = strings.TrimRight(fraction, "0")
	if len(fraction) > 2 || len(whole) > 16 {
		return 0, false
	}
	var value int64
	for _, c := range whole + (fraction + "00")[:2] {
		value = value*10 + int64(c-'0')
	}
	if negative {
		value = -value
	}
	return value, true
}

func twoDecimals(value int64) string {
	sign := ""
	if value < 0 {
		sign, value = "-", -value
	}
	return fmt.Sprintf("%s%d.%02d", sign, value/100, value%100)
}

func kind(raw json.RawMessage) string {
	switch t := bytes.TrimLeft(raw, " \t\r\n"); {
	case len(t) == 0:
		return "missing"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case t[0] == '"':
		return "string"
	case t[0] == 't' || t[0] == 'f':
		return "boolean"
	case t[0] == 'n':
		return "null"
	case bytes.ContainsAny(t, ".eE"):
		return "number"
	default:
		return "integer"
	}
}

type checker struct{ out []violation }

func (c *checker) add(pointer, keyword, message string) {
	c.out = append(c.out, violation{pointer, keyword, message})
}

func (c *checker) str(pointer string, raw json.RawMessage) (string, bool) {
	var s string
	if kind(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		c.add(pointer, "type", "expected string, found "+kind(raw))
		return "", false
	}
	return s, true
}

// object decodes an object into its members (one pass of encoding/json).
func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	if kind(raw) != "object" {
		return nil, false
	}
	members := map[string]json.RawMessage{}
	if json.Unmarshal(raw, &members) != nil {
		return nil, false
	}
	return members, true
}

func (c *checker) contact(pointer string, raw json.RawMessage) {
	members, ok := object(raw)
	if !ok {
		c.add(pointer, "type", "expected object, found "+kind(raw))
		return
	}
	for key := range members {
		if !contactMembers[key] {
			c.add(pointer+"/"+key, "additionalProperties", fmt.Sprintf("member %q is not allowed", key))
		}
	}
	if value, ok := members["fullName"]; !ok {
		c.add(pointer, "required", `missing required member "fullName"`)
	} else if s, ok := c.str(pointer+"/fullName", value); ok {
		if utf8.RuneCountInString(s) < 1 {
			c.add(pointer+"/fullName", "minLength", "must be at least 1 character long")
		}
	}
	phonesRaw, hasPhones := members["phones"]
	phoneRaw, hasPhone := members["phone"]
	if hasPhones && hasPhone {
		c.add(pointer, "not", "must not match the schema of not")
	} else if !hasPhones && !hasPhone {
		c.add(pointer, "required", `missing required member "phones" (or Android's "phone")`)
	}
	if hasPhones {
		var items []json.RawMessage
		if kind(phonesRaw) != "array" || json.Unmarshal(phonesRaw, &items) != nil {
			c.add(pointer+"/phones", "type", "expected array, found "+kind(phonesRaw))
		} else {
			for index, item := range items {
				c.str(fmt.Sprintf("%s/phones/%d", pointer, index), item)
			}
		}
	} else if hasPhone {
		c.str(pointer+"/phone", phoneRaw)
	}
	_, hasImage := members["image"]
	_, hasIcon := members["icon"]
	if hasImage && hasIcon {
		c.add(pointer, "not", "must not match the schema of not")
	}
	for _, key := range []string{"image", "icon"} {
		if value, ok := members[key]; ok {
			c.str(pointer+"/"+key, value)
		}
	}
}

func tatraError(code int, message, kind, status, title, text string) *rpcError {
	return &rpcError{code, message, tatraErrorData{kind, status, false, title, text}}
}

func (r *rules) paymentError(text string) *rpcError {
	return tatraError(-33002, "Execute payment error", "executePayment", "INVALID_ARGUMENT", r.texts["executePayment"], text)
}

func decimal(text string) *big.Rat {
	value, _ := new(big.Rat).SetString(text)
	return value
}

// check collects every violation of the schema (the slow path, for params that fast refused).
func (r *rules) check(raw json.RawMessage) *rpcError {
	c := &checker{}
	members, ok := object(raw)
	if !ok {
		c.add("", "type", "expected object, found "+kind(raw))
		return &rpcError{-32602, "Invalid params", map[string]any{"violations": c.out}}
	}
	amountRaw, hasAmount := members["amount"]
	if !hasAmount {
		c.add("", "required", `missing required member "amount"`)
	}
	_, hasContact := members["contact"]
	_, hasRecepient := members["recepient"]
	if !hasContact && !hasRecepient {
		c.add("", "required", `missing required member "contact" (or Android's "recepient")`)
	} else if hasContact && hasRecepient {
		c.add("", "not", "must not match the schema of not")
	}
	_, hasReference := members["reference"]
	_, hasMessage := members["messageForRecipient"]
	if hasReference && hasMessage {
		c.add("", "not", "must not match the schema of not")
	}
	for key := range members {
		if !params[key] {
			c.add("/"+key, "additionalProperties", fmt.Sprintf("member %q is not allowed", key))
		}
	}
	if hasAmount {
		if s, ok := c.str("/amount", amountRaw); ok {
			if !r.amount.MatchString(s) {
				c.add("/amount", "pattern", r.amountMessage)
			}
		}
	}
	for _, key := range []string{"contact", "recepient"} {
		if value, ok := members[key]; ok {
			c.contact("/"+key, value)
		}
	}
	for _, key := range []string{"reference", "messageForRecipient"} {
		if value, ok := members[key]; ok {
			c.str("/"+key, value)
		}
	}
	if len(c.out) > 0 {
		return &rpcError{-32602, "Invalid params", map[string]any{"violations": c.out}}
	}
	return nil
}

func (r *rules) executePayment(raw json.RawMessage) (any, *rpcError) {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	amount, name, phones, reference, ok := r.fast(raw)
	if !ok {
		if failure := r.check(raw); failure != nil {
			return nil, failure
		}
		return nil, &rpcError{Code: -32603, Message: "Internal error: the fast path refused what the checker accepts"}
	}
	value, exact := cents(amount)
	if !exact || value < r.minCents || value > r.maxCents {
		text := fmt.Sprintf("The amount must be from %s to %s %s.", r.minText, r.maxText, r.currency)
		if a := decimal(amount); a.Cmp(decimal(r.minText)) >= 0 && a.Cmp(decimal(r.maxText)) <= 0 {
			text = "The amount may have at most two decimals."
		}
		return nil, tatraError(-33003, "Amount limit", "amountLimit", "OUT_OF_RANGE", r.texts["amountLimit"], text)
	}
	if len(phones) == 0 {
		return nil, r.paymentError("The recipient has no phone number.")
	}
	phone := phones[0]
	if !r.phone.MatchString(phone) {
		return nil, r.paymentError(fmt.Sprintf("The recipient's phone number %s is not valid.", phone))
	}
	if phone == r.ownerPhone {
		return nil, tatraError(-33004, "Same recipient", "sameRecipient", "INVALID_ARGUMENT", r.texts["sameRecipient"],
			"The recipient is your own phone number.")
	}
	if reference != nil {
		if len(utf16.Encode([]rune(*reference))) > r.descriptionLength {
			return nil, r.paymentError(fmt.Sprintf("The reference may have at most %d characters.", r.descriptionLength))
		}
		if !r.description.MatchString(*reference) {
			return nil, r.paymentError("The reference contains characters that are not allowed.")
		}
	}
	text := strings.NewReplacer("{amount}", twoDecimals(value), "{currency}", r.currency, "{name}", name, "{phone}", phone).
		Replace(r.texts["paymentConfirmation"])
	return text, nil
}

var null = json.RawMessage("null")

// answer is the response line to one request line, or nil for a notification.
func (r *rules) answer(line []byte) []byte {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		if _, syntax := err.(*json.SyntaxError); syntax || !json.Valid(line) {
			return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n")
		}
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}` + "\n")
	}
	id := req.ID
	if len(id) == 0 {
		id = null
	}
	var result any
	var failure *rpcError
	if req.JSONRPC == nil || *req.JSONRPC != "2.0" || req.Method == nil {
		failure = &rpcError{Code: -32600, Message: "Invalid Request"}
	} else if len(req.ID) == 0 {
		return nil
	} else {
		switch *req.Method {
		case "rpc.health":
			if len(req.Params) == 0 || bytes.Equal(bytes.Join(bytes.Fields(req.Params), nil), []byte("{}")) {
				return append(append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"result":{"status":"SERVING"}}`...), '\n')
			}
			failure = &rpcError{Code: -32602, Message: "Invalid params"}
		case "tatra.executePayment":
			result, failure = r.executePayment(req.Params)
		default:
			failure = &rpcError{Code: -32601, Message: "Method not found"}
		}
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if failure != nil {
		encoder.Encode(response{JSONRPC: "2.0", ID: id, Error: failure}) // ends the line with "\n"
		return out.Bytes()
	}
	out.WriteString(`{"jsonrpc":"2.0","id":`)
	out.Write(id)
	out.WriteString(`,"result":`)
	encoder.Encode(result)
	out.Truncate(out.Len() - 1)
	out.WriteString("}\n")
	return out.Bytes()
}

func (r *rules) serve(conn net.Conn) {
	defer conn.Close()
	reader := bufio.NewReaderSize(conn, 64*1024)
	writer := bufio.NewWriterSize(conn, 64*1024)
	for {
		line, err := reader.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			whole := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = reader.ReadSlice('\n')
				whole = append(whole, line...)
			}
			line = whole
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if out := r.answer(bytes.TrimSpace(line)); out != nil {
				writer.Write(out)
			}
		}
		if err != nil {
			writer.Flush()
			return
		}
		// Answers are written together while more requests are already buffered.
		if reader.Buffered() == 0 && writer.Flush() != nil {
			return
		}
	}
}

func main() {
	port := flag.Int("port", 0, "TCP port on 127.0.0.1 (0: any)")
	schema := flag.String("schema", "", "Schemas/models/tatra.ExecutePaymentParams.json")
	sandbox := flag.String("sandbox", "", "Sources/TatraService/Resources/tatra-sandbox.json")
	flag.Parse()
	r := load(*schema, *sandbox)
	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer-go:", err)
		os.Exit(1)
	}
	fmt.Printf("listening %d\n", listener.Addr().(*net.TCPAddr).Port)
	for {
		conn, err := listener.Accept()
		if err != nil {
			return
		}
		go r.serve(conn)
	}
}
