package wire

// Ptr returns a pointer to v: optional fields of the generated structs are pointers
// (Reference: wire.Ptr("Lunch")).
func Ptr[T any](v T) *T { return &v }
