// Command payrpc-gen writes the generated Go code of the payrpc client (Clients/go/generated/)
// from the OpenRPC document:
//
//	go run ./cmd/payrpc-gen --schema ../../Schemas/openrpc.json --out generated
//
// It writes only into the --out folder, deterministically; generate.sh runs it from anywhere.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/payrpc/payrpc-go/internal/gen"
)

func main() {
	schema := flag.String("schema", "", "the OpenRPC document (Schemas/openrpc.json)")
	out := flag.String("out", "", "the folder to write (Clients/go/generated)")
	flag.Parse()
	if *schema == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: payrpc-gen --schema <openrpc.json> --out <folder>")
		os.Exit(2)
	}
	written, err := gen.Write(*schema, *out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "payrpc-gen: %s: %v\n", *schema, err)
		os.Exit(1)
	}
	for _, path := range written {
		fmt.Printf("wrote %s/%s\n", *out, path)
	}
}
