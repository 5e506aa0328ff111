package wire

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// DecimalPattern is the pattern of a decimal string as the server's schemas spell it.
const DecimalPattern = `^-?(0(\.[0-9]{1,18})?|[1-9](\.[0-9]{1,17})?|[1-9][0-9]{1}(\.[0-9]{1,16})?|[1-9][0-9]{2}(\.[0-9]{1,15})?|[1-9][0-9]{3}(\.[0-9]{1,14})?|[1-9][0-9]{4}(\.[0-9]{1,13})?|[1-9][0-9]{5}(\.[0-9]{1,12})?|[1-9][0-9]{6}(\.[0-9]{1,11})?|[1-9][0-9]{7}(\.[0-9]{1,10})?|[1-9][0-9]{8}(\.[0-9]{1,9})?|[1-9][0-9]{9}(\.[0-9]{1,8})?|[1-9][0-9]{10}(\.[0-9]{1,7})?|[1-9][0-9]{11}(\.[0-9]{1,6})?|[1-9][0-9]{12}(\.[0-9]{1,5})?|[1-9][0-9]{13}(\.[0-9]{1,4})?|[1-9][0-9]{14}(\.[0-9]{1,3})?|[1-9][0-9]{15}(\.[0-9]{1,2})?|[1-9][0-9]{16}(\.[0-9]{1,1})?|[1-9][0-9]{17})$`

var decimalRE = regexp.MustCompile(DecimalPattern)

// Decimal is an amount of money as it travels on the wire: a decimal string such as "10.00",
// never a JSON number, so no precision is lost. A string literal converts to it directly
// (Amount: "10.00"); ParseDecimal checks one read at run time.
type Decimal string

// ParseDecimal returns s as a Decimal, or an error when s is not a plain decimal string
// (digits, an optional minus sign and fraction; no exponent, no leading zeros).
func ParseDecimal(s string) (Decimal, error) {
	d := Decimal(s)
	if !d.Valid() {
		return "", fmt.Errorf("payrpc: %q is not a decimal string", s)
	}
	return d, nil
}

// DecimalFromRat writes r with the given number of fraction digits (rounded half away from zero).
func DecimalFromRat(r *big.Rat, digits int) Decimal {
	text := r.FloatString(digits)
	if strings.HasPrefix(text, "-") && strings.Trim(text, "-0.") == "" {
		text = text[1:] // "-0.00" → "0.00"
	}
	return Decimal(text)
}

// Valid reports whether d is a well-formed decimal string.
func (d Decimal) Valid() bool { return decimalRE.MatchString(string(d)) }

// String returns the decimal string.
func (d Decimal) String() string { return string(d) }

// Rat returns the exact value of d; ok is false when d is not a valid decimal string.
func (d Decimal) Rat() (r *big.Rat, ok bool) {
	if !d.Valid() {
		return nil, false
	}
	return new(big.Rat).SetString(string(d))
}

// Cmp compares the values of d and other (-1, 0, +1), so "10.0" equals "10.00"; invalid
// decimals compare as their text.
func (d Decimal) Cmp(other Decimal) int {
	a, okA := d.Rat()
	b, okB := other.Rat()
	if !okA || !okB {
		switch {
		case d < other:
			return -1
		case d > other:
			return 1
		}
		return 0
	}
	return a.Cmp(b)
}

// MarshalJSON writes d as a JSON string; it refuses a malformed decimal rather than sending it.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("payrpc: %q is not a decimal string", string(d))
	}
	return json.Marshal(string(d))
}

// UnmarshalJSON reads a decimal string; a JSON number is refused (money is never a float).
func (d *Decimal) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return fmt.Errorf("payrpc: expected a decimal string, found %s", data)
	}
	parsed, err := ParseDecimal(text)
	if err != nil {
		return err
	}
	*d = parsed
	return nil
}
