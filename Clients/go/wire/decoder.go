package wire

import "encoding/json"

// Decoder returns a function that decodes JSON params (absent or null: the zero value) into a
// T; the generated notification tables are made of these.
func Decoder[T any]() func(json.RawMessage) (interface{}, error) {
	return func(raw json.RawMessage) (interface{}, error) {
		var value T
		if len(raw) == 0 || string(raw) == "null" {
			return value, nil
		}
		err := json.Unmarshal(raw, &value)
		return value, err
	}
}
